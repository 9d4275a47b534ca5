// An owner makes a member of their account an owner or a developer. The member's sessions end at
// once, on every server process: they sign in again under the new role.
import { z } from "zod";
import { sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { endUserSessions } from "@/lib/auth/user-sessions";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { accountRoles } from "./roles";
import { lockMemberForOwner } from "./lock-members";

export const changeMemberRoleSchema = z.object({
  id: z.uuid(),
  role: z.enum(accountRoles, { error: "must be owner or developer" }),
});

export async function changeMemberRole(
  input: z.infer<typeof changeMemberRoleSchema> & { accountId: string; actingUserId: string },
): Promise<{ id: string; role: string; endedSessions: number }> {
  if (input.id === input.actingUserId) {
    throw new AppError("BAD_REQUEST", "You cannot change your own role", {
      fields: [{ field: "role", description: "is yours; ask another owner" }],
    });
  }
  const { member, endedSessions } = await sql().transaction(async (tx) => {
    const member = await lockMemberForOwner(tx, { accountId: input.accountId, memberId: input.id, actingUserId: input.actingUserId });
    if (member.disabledAt !== null) throw AppError.notFound("Member");
    if (member.role === input.role) return { member, endedSessions: null };
    await tx.run(`UPDATE "User" SET "role" = ?, "sessionVersion" = "sessionVersion" + 1, "updatedAt" = ? WHERE "id" = ?`, [
      input.role,
      toDbTime(new Date()),
      member.id,
    ]);
    return { member, endedSessions: await endUserSessions(tx, member.id) };
  });
  if (endedSessions === null) return { id: member.id, role: member.role, endedSessions: 0 };
  await recordAuditEvent({
    accountId: input.accountId,
    actor: `user:${input.actingUserId}`,
    action: "user.role_changed",
    targetType: "user",
    targetId: member.id,
    data: { email: member.email, from: member.role, to: input.role, endedSessions },
  });
  return { id: member.id, role: input.role, endedSessions };
}
