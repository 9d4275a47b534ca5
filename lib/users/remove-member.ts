import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/**
 * Removes a member from the account. The row goes, so the session check (lib/auth/auth-options.ts)
 * finds no user and every open session of theirs ends with the next request.
 */
export async function removeMember(input: { accountId: string; userId: string; actingUserId: string }): Promise<void> {
  if (input.userId === input.actingUserId) {
    throw new AppError("BAD_REQUEST", "You cannot remove yourself", {
      fields: [{ field: "user", description: "is you; ask another owner" }],
    });
  }
  const user = await db().user.findFirst({ where: { id: input.userId, accountId: input.accountId } });
  if (!user) throw AppError.notFound("Member");
  await db().user.delete({ where: { id: user.id } });
  await recordAuditEvent({
    accountId: input.accountId,
    actor: `user:${input.actingUserId}`,
    action: "user.removed",
    targetType: "user",
    targetId: user.id,
    data: { email: user.email, role: user.role },
  });
}
