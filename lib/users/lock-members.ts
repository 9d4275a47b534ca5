// Changes to an account's members run one at a time per account, each made by someone who is still
// an owner when it runs: two owners removing or demoting each other at the same moment cannot both
// succeed and leave the account without an owner, and a request of an owner removed meanwhile
// changes nothing.
import type { SqlExecutor } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";

export type LockedMember = { id: string; email: string; role: string; disabledAt: unknown };

/**
 * In the caller's transaction: waits for the account's other member changes, then returns the member
 * (NOT_FOUND when not on the account) once the acting user is confirmed a current owner (FORBIDDEN otherwise).
 */
export async function lockMemberForOwner(
  tx: SqlExecutor,
  input: { accountId: string; memberId: string; actingUserId: string },
): Promise<LockedMember> {
  // SQLite's write transaction already runs alone; on PostgreSQL the account row is the lock.
  if (tx.dialect === "postgres") await tx.get(`SELECT "id" FROM "Account" WHERE "id" = ? FOR UPDATE`, [input.accountId]);
  const member = await tx.get<LockedMember>(`SELECT "id", "email", "role", "disabledAt" FROM "User" WHERE "id" = ? AND "accountId" = ?`, [
    input.memberId,
    input.accountId,
  ]);
  if (!member) throw AppError.notFound("Member");
  const actor = await tx.get<{ role: string }>(`SELECT "role" FROM "User" WHERE "id" = ? AND "accountId" = ? AND "disabledAt" IS NULL`, [
    input.actingUserId,
    input.accountId,
  ]);
  if (actor?.role !== "owner") throw new AppError("FORBIDDEN", "Your role does not allow this");
  return member;
}
