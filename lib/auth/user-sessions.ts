// Ending a user's dashboard sessions (UserSession rows, lib/auth/auth-options.ts): every server
// process re-reads the row on each request, so an ended session is refused everywhere at its next
// request, for every copy of its cookie.
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";

/** Ends the user's live sessions, all of them or all but `except`, in the caller's transaction; returns how many ended. */
export async function endUserSessions(tx: SqlExecutor, userId: string, options: { except?: string | null } = {}): Promise<number> {
  const keep = options.except ? ` AND "id" <> ?` : "";
  return tx.run(`UPDATE "UserSession" SET "endedAt" = ? WHERE "userId" = ? AND "endedAt" IS NULL${keep}`, [
    toDbTime(new Date()),
    userId,
    ...(options.except ? [options.except] : []),
  ]);
}
