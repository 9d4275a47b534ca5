// A signed-in user changes their own password: the current one first, then the new one under the
// same rules as a first password. Every other session of the user ends (another browser, a copied
// cookie); the session that made the change stays signed in. A wrong current password counts as a
// failed sign-in of the user's email (lib/auth/login-throttle.ts), so a stolen session cannot guess
// the password faster here than at the sign-in page.
import { z } from "zod";
import { db, sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { endUserSessions } from "@/lib/auth/user-sessions";
import { clearFailedLogins, loginRetryAfterSeconds, recordFailedLogin } from "@/lib/auth/login-throttle";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { passwordSchema } from "./create-user";

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "cannot be blank").max(200, "must be at most 200 characters"),
    newPassword: passwordSchema,
    confirmPassword: z.string(),
  })
  .refine((input) => input.confirmPassword === input.newPassword, { path: ["confirmPassword"], message: "must match the new password" });

export async function changePassword(
  input: z.infer<typeof changePasswordSchema> & { userId: string; currentSessionId: string | null },
): Promise<{ endedSessions: number }> {
  const user = await db().user.findUnique({ where: { id: input.userId } });
  if (!user || user.disabledAt) throw new AppError("UNAUTHORIZED", "Sign in to continue");
  const retryAfter = await loginRetryAfterSeconds(user.email, null);
  if (retryAfter > 0) {
    const minutes = Math.ceil(retryAfter / 60);
    const wait = `too many wrong passwords: try again in ${minutes} minute${minutes === 1 ? "" : "s"}`;
    throw AppError.validation([{ field: "currentPassword", description: wait }]);
  }
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    await recordFailedLogin(user.email, null);
    throw AppError.validation([{ field: "currentPassword", description: "is not your current password" }]);
  }
  await clearFailedLogins(user.email);
  if (input.newPassword === input.currentPassword) {
    throw AppError.validation([{ field: "newPassword", description: "must differ from the current password" }]);
  }
  const passwordHash = await hashPassword(input.newPassword);
  const endedSessions = await sql().transaction(async (tx) => {
    await tx.run(`UPDATE "User" SET "passwordHash" = ?, "updatedAt" = ? WHERE "id" = ?`, [passwordHash, toDbTime(new Date()), user.id]);
    return endUserSessions(tx, user.id, { except: input.currentSessionId });
  });
  await recordAuditEvent({
    accountId: user.accountId,
    actor: `user:${user.id}`,
    action: "user.password_changed",
    targetType: "user",
    targetId: user.id,
    data: { email: user.email, endedSessions },
  });
  return { endedSessions };
}
