// The queues' claims: one UPDATE … RETURNING of due rows, leased. The engine's store gives the
// clauses that differ (../sqlite, ../postgres): how the due rows are chosen and locked, and whether
// the UPDATE checks the status again.
import { fromDbTimeOrNull, toDbTime, type Sql } from "@/lib/db/sql";
import { SQL_STATUS } from "@/lib/model/message-status";
import { parseRowOrNull } from "./rows";
import type { ClaimedMessage, ClaimedWebhookDelivery, MessageClaim, QueueState, WebhookClaim } from "@/lib/model/queue";

export type ClaimClauses = {
  /**
   * Between `AS` and the due rows' SELECT. PostgreSQL: MATERIALIZED, so the rows are chosen once:
   * as a subquery of the UPDATE, a locking SELECT may run again per row and claim past its LIMIT.
   */
  chooseOnce: string;
  /** Appended to the SELECT of due rows. */
  lockDue: string;
  /** Prefixed to the outer UPDATE's WHERE: re-checks what another claimer may have changed meanwhile. */
  stillDue: string;
  /** Appended to the due rows' table name: the index the engine is to read them through, if it must be told. */
  dueIndex?: string;
};

/**
 * Returning only the dispatcher's columns, not `*`: RETURNING * built and parsed 30 columns per
 * message, about half of the claim's time on SQLite.
 */
const CLAIMED_COLUMNS = [
  "id",
  "accountId",
  "to",
  "body",
  "senderId",
  "operator",
  "test",
  "attempts",
  "webhookUrl",
  "operatorResponse",
  "expiresAt",
];

export async function claimMessages(database: Sql, clauses: ClaimClauses, claim: MessageClaim): Promise<ClaimedMessage[]> {
  const now = claim.now ?? new Date();
  // In turn order (lib/messages/queue-turns.ts: high priority first, accounts in turn); the due
  // check reads nextAttemptAt from the same index.
  const rows = await database.all<
    Omit<ClaimedMessage, "test" | "attempts" | "expiresAt"> & { test: boolean | number; attempts: number | string; expiresAt: unknown }
  >(
    `WITH due AS ${clauses.chooseOnce}(
       SELECT "id" FROM "Message"${clauses.dueIndex ?? ""}
       WHERE "status" = ${SQL_STATUS.enqueued} AND "operator" = :operator AND "test" = :test AND "nextAttemptAt" <= :now
       ORDER BY "turn" LIMIT :limit${clauses.lockDue})
     UPDATE "Message" SET "status" = ${SQL_STATUS.processing}, "leaseOwner" = :owner, "leaseUntil" = :leaseUntil,
       "attempts" = "attempts" + 1, "updatedAt" = :now
     WHERE ${clauses.stillDue}"id" IN (SELECT "id" FROM due)
     RETURNING ${CLAIMED_COLUMNS.map((column) => `"${column}"`).join(", ")}`,
    {
      owner: claim.owner,
      leaseUntil: toDbTime(new Date(now.getTime() + claim.leaseMs)),
      now: toDbTime(now),
      operator: claim.operator,
      test: claim.test,
      limit: claim.limit,
    },
  );
  return rows.map((row) => ({
    ...row,
    test: row.test === true || row.test === 1,
    attempts: Number(row.attempts),
    expiresAt: fromDbTimeOrNull(row.expiresAt),
  }));
}

export async function claimWebhookDeliveries(database: Sql, clauses: ClaimClauses, claim: WebhookClaim): Promise<ClaimedWebhookDelivery[]> {
  const now = claim.now ?? new Date();
  const at = toDbTime(now);
  const rows = await database.all<Omit<ClaimedWebhookDelivery, "attempts"> & { attempts: number | string }>(
    `WITH due AS ${clauses.chooseOnce}(
       SELECT "id" FROM "WebhookDelivery"
       WHERE "status" = 'pending' AND "nextAttemptAt" <= :now AND ("leaseUntil" IS NULL OR "leaseUntil" < :now)
       ORDER BY "nextAttemptAt" LIMIT :limit${clauses.lockDue})
     UPDATE "WebhookDelivery" SET "leaseUntil" = :leaseUntil, "updatedAt" = :now
     WHERE "id" IN (SELECT "id" FROM due)
     RETURNING "id", "accountId", "messageId", "endpointId", "url", "eventType", "payload", "attempts"`,
    { leaseUntil: toDbTime(new Date(now.getTime() + claim.leaseMs)), now: at, limit: claim.limit },
  );
  return rows.map((row) => ({ ...row, attempts: Number(row.attempts) }));
}

/** Index seeks: the processing index's last claimed normal turn, and the claim index's first queued row. */
export async function readQueueState(
  database: Sql,
  queue: { operator: string; test: boolean; normalTurnsAfter: number },
): Promise<QueueState> {
  const row = await database.get(
    `SELECT
       (SELECT MAX("turn") FROM "Message"
        WHERE "status" = ${SQL_STATUS.processing} AND "operator" = :operator AND "test" = :test AND "turn" > :after) AS "serving",
       EXISTS (SELECT 1 FROM "Message" WHERE "status" = ${SQL_STATUS.enqueued} AND "operator" = :operator AND "test" = :test) AS "queued"`,
    { operator: queue.operator, test: queue.test, after: queue.normalTurnsAfter },
  );
  const state = parseRowOrNull(row, { serving: "integer?", queued: "boolean" });
  return { servingTurn: state?.serving ?? null, queued: state?.queued ?? false };
}
