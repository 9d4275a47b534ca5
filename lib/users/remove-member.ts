import { sql } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { lockMemberForOwner } from "./lock-members";

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
  const user = await sql().transaction(async (tx) => {
    const member = await lockMemberForOwner(tx, { accountId: input.accountId, memberId: input.userId, actingUserId: input.actingUserId });
    await tx.run(`DELETE FROM "UserSession" WHERE "userId" = ?`, [member.id]);
    await tx.run(`DELETE FROM "User" WHERE "id" = ?`, [member.id]);
    return member;
  });
  await recordAuditEvent({
    accountId: input.accountId,
    actor: `user:${input.actingUserId}`,
    action: "user.removed",
    targetType: "user",
    targetId: user.id,
    data: { email: user.email, role: user.role },
  });
}
