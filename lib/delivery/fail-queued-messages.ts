// Messages that end before any carrier had them: cancelled by their owner, or expired while queued.
// One conditional UPDATE moves only messages still created or enqueued to failed, so a claim and a
// cancel of the same message cannot both land: the claim needs enqueued, the cancel needs created or
// enqueued, and each engine serialises the two on the row. Each failed message is refunded once (its
// release is the ledger row) and its webhook told.
import { SQL_STATUS, statusList, MessageStatus } from "@/lib/model/message-status";
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { sql } from "@/lib/db/client";
import { inList } from "@/lib/db/batch-lists";
import { parseId, parseMessageRow, parseRows } from "@/lib/db/stores/shared/rows";
import { enqueueWebhooksFor } from "@/lib/webhooks/enqueue-webhook";
import { queueStatusChangesOf, statusEventsWanted } from "@/lib/webhooks/status-events";
import { recordMessageEvents } from "./record-message-event";
import { refundQueuedMessages } from "./refund-message";

export const EXPIRED_RESPONSE = "EXPIRED";
export const CANCELLED_RESPONSE = "CANCELLED";
export const EXPIRED_REASON = "validity period passed before a carrier took it";
export const CANCELLED_REASON = "cancelled before a carrier took it";

/** Statuses a message can still be cancelled or expire in: no carrier has it. */
export const QUEUED_STATUSES = [MessageStatus.created, MessageStatus.enqueued] as const;
/** Messages failed per transaction: a bulk send's refunds are written a chunk at a time. */
const CHUNK = 500;

/**
 * Fails the queued messages that `where` (SQL over "Message" with `?` parameters) selects, a chunk
 * per transaction; returns the ids it failed.
 */
export async function failQueuedMessages(
  where: { text: string; params: unknown[] },
  ending: { response: string; reason: string },
  now = new Date(),
): Promise<string[]> {
  const failed: string[] = [];
  for (;;) {
    const { chosen, ids } = await sql().transaction(async (tx) => failChunk(tx, where, ending, now));
    failed.push(...ids);
    // A chosen message a dispatcher claimed meanwhile is not failed; the next chunk no longer chooses it.
    if (chosen < CHUNK) return failed;
  }
}

async function failChunk(
  tx: SqlExecutor,
  where: { text: string; params: unknown[] },
  ending: { response: string; reason: string },
  now: Date,
): Promise<{ chosen: number; ids: string[] }> {
  const at = toDbTime(now);
  const queued = statusList(QUEUED_STATUSES);
  const chosen = await tx.all(`SELECT "id" FROM "Message" WHERE "status" IN ${queued} AND (${where.text}) LIMIT ${CHUNK}`, where.params);
  if (chosen.length === 0) return { chosen: 0, ids: [] };
  const ids = inList(chosen.map(parseId));
  // The status and `where` again: since the SELECT, a claim may have taken the message, or a submit
  // that got no answer put it back as one a carrier may have (PostgreSQL waits for the row lock).
  const rows = await tx.all(
    `UPDATE "Message" SET "status" = ${SQL_STATUS.failed}, "operatorResponse" = ?, "lastError" = ?, "finishedAt" = ?, "updatedAt" = ?
     WHERE "id" IN ${ids.text} AND "status" IN ${queued} AND (${where.text})
     RETURNING *`,
    [ending.response, ending.reason, at, at, ...ids.params, ...where.params],
  );
  const messages = rows.map(parseMessageRow);
  // Set-wise: a bulk send's cancel or expiry is hundreds of messages per chunk.
  await recordMessageEvents(
    tx,
    messages.map((message) => message.id),
    "failed",
    ending.reason,
    now,
  );
  await refundQueuedMessages(tx, messages, ending.reason, now);
  await enqueueWebhooksFor(tx, messages, "message.failed", now);
  return { chosen: chosen.length, ids: messages.map((message) => message.id) };
}

/** Queued messages whose validity has passed fail EXPIRED; returns how many. */
export async function expireQueuedMessages(now = new Date()): Promise<number> {
  const expired = await failQueuedMessages(
    { text: `"expiresAt" <= ?`, params: [toDbTime(now)] },
    { response: EXPIRED_RESPONSE, reason: EXPIRED_REASON },
    now,
  );
  return expired.length;
}

/** Scheduled messages whose time has come join their carrier's queue; returns how many. */
export async function enqueueScheduledMessages(now = new Date()): Promise<number> {
  const at = toDbTime(now);
  const text = `UPDATE "Message" SET "status" = ${SQL_STATUS.enqueued}, "updatedAt" = ?
     WHERE "status" = ${SQL_STATUS.created} AND "nextAttemptAt" <= ? AND "sendAt" IS NOT NULL`;
  if (!(await statusEventsWanted())) return sql().run(text, [at, at]);
  return sql().transaction(async (tx) => {
    const rows = parseRows(await tx.all(`${text} RETURNING "id", "accountId"`, [at, at]), { id: "text", accountId: "text" });
    await queueStatusChangesOf(tx, rows, now);
    return rows.length;
  });
}
