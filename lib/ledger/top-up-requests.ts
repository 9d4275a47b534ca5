// Owners' top-up requests: what each account has asked for and how it ended, the pending ones
// admins decide, and the one way a request leaves "pending" (a conditional update, so it happens once).
import { db, sql } from "@/lib/db/client";
import { toDbTime, type Row, type SqlExecutor } from "@/lib/db/sql";
import { parseOneOf, parseRowOrNull, parseRows } from "@/lib/db/stores/shared/rows";
import { AppError } from "@/lib/errors";

export const TOP_UP_STATES = ["pending", "approved", "declined", "cancelled"] as const;
export type TopUpState = (typeof TOP_UP_STATES)[number];

/** How many of an account's requests its Balance page lists, newest first. */
export const ACCOUNT_TOP_UP_LIMIT = 20;

export type TopUpRequestRow = {
  id: string;
  accountId: string;
  accountName: string;
  amount: bigint;
  currency: string;
  reference: string;
  note: string;
  state: TopUpState;
  /** The requesting owner's email (or the raw actor when the user is gone). */
  requestedBy: string;
  /** Who approved, declined or cancelled it, as an email, or null while pending. */
  decidedBy: string | null;
  decidedAt: Date | null;
  declineReason: string | null;
  createdAt: Date;
};

const TOP_UP_ROW = {
  id: "text",
  accountId: "text",
  accountName: "text",
  amount: "bigint",
  currency: "text",
  reference: "text",
  note: "text",
  state: "text",
  requestedBy: "text",
  decidedBy: "text?",
  decidedAt: "time?",
  declineReason: "text?",
  createdAt: "time",
} as const;

const SELECT_TOP_UPS = `
  SELECT t."id", t."accountId", a."name" AS "accountName", t."amount", t."currency", t."reference", t."note", t."state",
         COALESCE(r."email", t."requestedBy") AS "requestedBy", COALESCE(d."email", t."decidedBy") AS "decidedBy",
         t."decidedAt", t."declineReason", t."createdAt"
    FROM "TopUpRequest" t
    JOIN "Account" a ON a."id" = t."accountId"
    LEFT JOIN "User" r ON t."requestedBy" = 'user:' || r."id"
    LEFT JOIN "User" d ON t."decidedBy" = 'user:' || d."id"`;

function toTopUps(rows: readonly Row[]): TopUpRequestRow[] {
  return parseRows(rows, TOP_UP_ROW).map((row) => ({ ...row, state: parseOneOf(row.state, TOP_UP_STATES, "state") }));
}

/** The account's most recent requests, newest first, whatever their state. */
export async function listAccountTopUps(accountId: string): Promise<TopUpRequestRow[]> {
  const rows = await sql().all(`${SELECT_TOP_UPS} WHERE t."accountId" = ? ORDER BY t."createdAt" DESC, t."id" DESC LIMIT ?`, [
    accountId,
    ACCOUNT_TOP_UP_LIMIT,
  ]);
  return toTopUps(rows);
}

/** Every pending request of every account, oldest first: the admins' queue. */
export async function listPendingTopUps(): Promise<TopUpRequestRow[]> {
  const rows = await sql().all(`${SELECT_TOP_UPS} WHERE t."state" = 'pending' ORDER BY t."createdAt" ASC, t."id" ASC`);
  return toTopUps(rows);
}

export async function countPendingTopUps(): Promise<number> {
  return db().topUpRequest.count({ where: { state: "pending" } });
}

/** The request, or NOT_FOUND (also for another account's, when accountId is given). */
export async function findTopUp(id: string, accountId?: string) {
  const request = await db().topUpRequest.findUnique({ where: { id } });
  if (!request || (accountId !== undefined && request.accountId !== accountId)) throw AppError.notFound("Top-up request");
  return request;
}

/**
 * Moves a pending request to its final state, or throws CONFLICT when it is no longer pending (another
 * admin, a second click, the owner's cancel came first). Inside a transaction, so what goes with it
 * (an approval's credit) is written only by the one caller whose update landed.
 */
export async function settleTopUp(
  executor: SqlExecutor,
  change: { id: string; state: Exclude<TopUpState, "pending">; actor: string; declineReason?: string },
): Promise<void> {
  const changed = await executor.run(
    `UPDATE "TopUpRequest" SET "state" = ?, "decidedBy" = ?, "decidedAt" = ?, "declineReason" = ? WHERE "id" = ? AND "state" = 'pending'`,
    [change.state, change.actor, toDbTime(new Date()), change.declineReason ?? null, change.id],
  );
  if (changed === 0) {
    const current = parseRowOrNull(await executor.get(`SELECT "state" FROM "TopUpRequest" WHERE "id" = ?`, [change.id]), { state: "text" });
    throw new AppError("CONFLICT", `This top-up request is already ${current?.state ?? "closed"}`);
  }
}
