// Slows down password guessing: failed sign-ins are rows in LoginAttempt, per email and per client
// address. Past the limit within the window, sign-ins for that subject are refused (without checking
// the password) until the oldest counted failure ages out. A successful sign-in clears the email's
// failures, never the address's.
import { sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { parseRows } from "@/lib/db/stores/shared/rows";

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 30;

function subjects(email: string, address: string | null): { subject: string; limit: number }[] {
  return [
    { subject: `email:${email}`, limit: MAX_FAILURES_PER_EMAIL },
    ...(address ? [{ subject: `ip:${address}`, limit: MAX_FAILURES_PER_ADDRESS }] : []),
  ];
}

/** Seconds to wait before this email or address may try again; 0 when a sign-in may be attempted now. */
export async function loginRetryAfterSeconds(email: string, address: string | null, now = new Date()): Promise<number> {
  const since = toDbTime(new Date(now.getTime() - LOGIN_WINDOW_MS));
  let waitMs = 0;
  for (const { subject, limit } of subjects(email, address)) {
    const recent = parseRows(
      await sql().all(
        `SELECT "createdAt" FROM "LoginAttempt" WHERE "subject" = ? AND "createdAt" > ? ORDER BY "createdAt" DESC LIMIT ${limit}`,
        [subject, since],
      ),
      { createdAt: "time" },
    );
    if (recent.length < limit) continue;
    const oldestCounted = recent[recent.length - 1].createdAt.getTime();
    waitMs = Math.max(waitMs, oldestCounted + LOGIN_WINDOW_MS - now.getTime());
  }
  return Math.ceil(waitMs / 1000);
}

export async function recordFailedLogin(email: string, address: string | null, now = new Date()): Promise<void> {
  const cutoff = toDbTime(new Date(now.getTime() - LOGIN_WINDOW_MS));
  await sql().transaction(async (tx) => {
    for (const { subject } of subjects(email, address)) {
      await tx.run(`DELETE FROM "LoginAttempt" WHERE "subject" = ? AND "createdAt" <= ?`, [subject, cutoff]);
      await tx.run(`INSERT INTO "LoginAttempt" ("subject", "createdAt") VALUES (?, ?)`, [subject, toDbTime(now)]);
    }
  });
}

export async function clearFailedLogins(email: string): Promise<void> {
  await sql().run(`DELETE FROM "LoginAttempt" WHERE "subject" = ?`, [`email:${email}`]);
}

/** The client's address as Next passes it on (x-forwarded-for, first hop). */
export function clientAddress(headers: Record<string, unknown> | undefined): string | null {
  const forwarded = headers?.["x-forwarded-for"];
  const first = typeof forwarded === "string" ? forwarded.split(",")[0].trim() : "";
  return first || null;
}
