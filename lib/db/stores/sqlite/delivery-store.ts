// SQLite's delivery and webhook stores. One writer: a claim's UPDATE … RETURNING runs under the
// database's write lock, so its inner SELECT needs no lock and the UPDATE no second status check
// (with one, SQLite walks every enqueued row through the status index instead of the claimed ids).
// Acceptances and receipts' part changes are written in a transaction, with the domain's rest of the
// batch after them: its statements cost no round trip, and the one writer orders every transaction.
import { timeOrderedUuid } from "@/lib/model/ids";
import { SQL_STATUS } from "@/lib/model/message-status";
import { toDbTime, type Sql, type SqlExecutor } from "@/lib/db/sql";
import { valuesTable } from "@/lib/db/batch-lists";
import { insertRows } from "@/lib/db/insert-rows";
import type { CarrierAcceptance, DeliveredMessage, DeliveryStore, PartChange, ThenInTransaction, WebhookStore } from "../types";
import { claimWebhookDeliveries, type ClaimClauses } from "../shared/claims";
import { deliveryStore } from "../shared/delivery-store";
import { parseDeliveredMessage } from "../shared/rows";

const SQLITE_CLAIMS: ClaimClauses = { chooseOnce: "", lockDue: "", stillDue: "" };
/**
 * Without statistics SQLite would read the due rows through (status, nextAttemptAt) and sort every
 * one of them; the claim index gives them in turn order and stops at the limit.
 */
const SQLITE_MESSAGE_CLAIMS: ClaimClauses = {
  ...SQLITE_CLAIMS,
  dueIndex: ` INDEXED BY "Message_claim_idx"`,
};
const PART_COLUMNS = ["id", "messageId", "partNumber", "operator", "carrierMessageId", "status", "createdAt"] as const;

export function sqliteDeliveryStore(database: Sql): DeliveryStore {
  return deliveryStore(database, {
    claims: SQLITE_MESSAGE_CLAIMS,
    withThen: (then, change) => inTransaction(database, then, change),
    recordAcceptances,
    recordPartChanges,
  });
}

export function sqliteWebhookStore(database: Sql): WebhookStore {
  return { claim: (claim) => claimWebhookDeliveries(database, SQLITE_CLAIMS, claim) };
}

async function inTransaction<C, T>(
  database: Sql,
  then: ThenInTransaction<C, T>,
  change: (tx: SqlExecutor) => Promise<C>,
): Promise<{ changed: C; then: T | null }> {
  return database.transaction(async (tx) => {
    const changed = await change(tx);
    return { changed, then: then ? await then(tx, changed) : null };
  });
}

/** Parts are written only here, once per message (success is final), so they never collide. */
async function recordAcceptances(tx: SqlExecutor, acceptances: CarrierAcceptance[], now: Date): Promise<string[]> {
  if (acceptances.length === 0) return [];
  const at = toDbTime(now);
  const answers = valuesTable(
    tx,
    ["text", "text", "text", "text", "timestamp"],
    acceptances.map((answer) => [answer.messageId, answer.owner, answer.response, answer.carrierMessageIds[0], toDbTime(answer.startedAt)]),
  );
  const updated = await tx.all<{ id: string }>(
    `UPDATE "Message" SET "status" = ${SQL_STATUS.success}, "operatorResponse" = v.column3, "carrierMessageId" = v.column4, "dispatchedAt" = v.column5,
       "finishedAt" = ?, "lastError" = NULL, "updatedAt" = ?, "leaseOwner" = NULL, "leaseUntil" = NULL
     FROM ${answers.text}
     WHERE "Message"."id" = v.column1 AND "Message"."leaseOwner" = v.column2 AND "Message"."status" = ${SQL_STATUS.processing}
     RETURNING "Message"."id"`,
    [at, at, ...answers.params],
  );
  const landed = new Set(updated.map((row) => row.id));
  // The parts' createdAt is the carrier's acceptance in the message's timeline.
  const parts = acceptances
    .filter((answer) => landed.has(answer.messageId))
    .flatMap((answer) =>
      answer.carrierMessageIds.map((carrierMessageId, index) => [
        timeOrderedUuid(),
        answer.messageId,
        index + 1,
        answer.operator,
        carrierMessageId,
        "submitted",
        at,
      ]),
    );
  await insertRows(tx, "MessagePart", PART_COLUMNS, parts);
  return acceptances.filter((answer) => landed.has(answer.messageId)).map((answer) => answer.messageId);
}

/** A part changes only while it is still "submitted"; a message is delivered once no part of it is left without its DELIVRD. */
async function recordPartChanges(tx: SqlExecutor, changes: PartChange[], now: Date): Promise<DeliveredMessage[]> {
  if (changes.length === 0) return [];
  const at = toDbTime(now);
  const rows = valuesTable(
    tx,
    ["text", "text", "text", "text"],
    changes.map((change) => [change.partId, change.status, change.stat, change.err]),
  );
  const changed = await tx.all<{ messageId: string; status: string }>(
    `UPDATE "MessagePart" SET "status" = v.column2, "receiptStat" = v.column3, "receiptError" = v.column4, "receiptAt" = ?
     FROM ${rows.text} WHERE "MessagePart"."id" = v.column1 AND "MessagePart"."status" = 'submitted'
     RETURNING "MessagePart"."messageId", "MessagePart"."status"`,
    [at, ...rows.params],
  );
  const messageIds = [...new Set(changed.filter((row) => row.status === "delivered").map((row) => row.messageId))];
  if (messageIds.length === 0) return [];
  // Joined to a VALUES list, not `"id" IN (…)`: with IN, SQLite's planner walks the status index (every message in "success").
  const ids = valuesTable(
    tx,
    ["text"],
    messageIds.map((id) => [id]),
  );
  const delivered = await tx.all(
    `UPDATE "Message" SET "deliveredAt" = ?, "operatorResponse" = 'DELIVRD', "updatedAt" = ? FROM ${ids.text}
     WHERE "Message"."id" = v.column1 AND "Message"."status" = ${SQL_STATUS.success} AND "Message"."deliveredAt" IS NULL
       AND NOT EXISTS (SELECT 1 FROM "MessagePart" WHERE "MessagePart"."messageId" = "Message"."id" AND "MessagePart"."status" <> 'delivered')
     RETURNING "Message"."id", "Message"."accountId", "Message"."operator", "Message"."webhookUrl", "Message"."test", "Message"."dispatchedAt"`,
    [at, at, ...ids.params],
  );
  return delivered.map(parseDeliveredMessage);
}
