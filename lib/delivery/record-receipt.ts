// A carrier's delivery receipt for one part. DELIVRD on every part sets the message's delivered_at
// and operator_response = "DELIVRD". UNDELIV, REJECTD, EXPIRED or DELETED on any part ends the
// message failed with the stat as operator_response, and refunds it (docs/delivery.md, Refunds).
// Intermediate states (ENROUTE, ACCEPTD, UNKNOWN) are noted on the part only. A repeated receipt
// changes nothing.
import { SQL_STATUS } from "@/lib/model/message-status";
import { getStores, type DeliveredMessage, type PlainPartChange } from "@/lib/db/stores";
import { fromDbTime, fromDbTimeOrNull, toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { inList, valuesTable } from "@/lib/db/batch-lists";
import { metrics } from "@/lib/metrics";
import { carrierIdCandidates, FAILED_STATS, type DeliveryReceipt } from "@/lib/smpp/parse-receipt";
import { enqueueWebhook, enqueueWebhooks } from "@/lib/webhooks/enqueue-webhook";
import { hasStatusEndpoints, refreshEndpointCache } from "@/lib/webhooks/account-events";
import { parseMessageRow } from "@/lib/messages/message-row";
import { recordMessageEvent } from "./record-message-event";
import { refundMessage } from "./refund-message";
import { acceptedAtOfId, type ReceiptHours } from "./hour-stats";

export type ReceiptMatch = "matched" | "unknown";
export type ReceiptEntry = { operator: string; receipt: DeliveryReceipt };
type Counter = "messagesDelivered" | "messagesFailed";
/** With `withMessage`: the message's webhook URL and how many parts it has. */
type Part = {
  id: string;
  messageId: string;
  status: string;
  carrierMessageId: string;
  createdAt: unknown;
  webhookUrl?: string | null;
  accountId?: string;
  partCount?: number;
};
type PartChange = { part: Part; receipt: DeliveryReceipt; status: "delivered" | "failed" | "submitted" };

/**
 * Records receipts in one transaction (the receipt handler group-commits them), one statement per
 * step for the whole batch: find the parts, change them, mark the messages they complete. The usual
 * batch (deliveries or intermediate states of one-part messages without a webhook) the engine's
 * delivery store may write in one step after the lookup.
 */
export async function recordReceipts(entries: ReceiptEntry[], hours?: ReceiptHours): Promise<ReceiptMatch[]> {
  const now = new Date();
  await refreshEndpointCache();
  const { matches, counted } = await getStores().delivery.recordReceipts(
    (executor) => plainChanges(executor, entries),
    now,
    (tx) => recordInTransaction(tx, entries, now),
  );
  for (const { operator, counter, ended } of counted) {
    metrics()[counter].inc({ operator });
    if (ended.test) continue;
    if (ended.dispatchedAt) hours?.of(operator).receipted(ended.dispatchedAt.getTime(), now.getTime());
    if (counter === "messagesDelivered") observeReceiptLatency(operator, ended.id, now, hours);
  }
  return matches;
}

/** The time from the carrier's acceptance (the part id's time) to the receipt, for the Carriers page and /metrics. */
function observeReceiptLatency(operator: string, messageId: string, now: Date, hours?: ReceiptHours): void {
  const acceptedAt = acceptedAtOfId(messageId);
  const latencyMs = acceptedAt === null ? null : Math.max(0, now.getTime() - acceptedAt);
  hours?.of(operator).delivered(latencyMs, now.getTime());
  if (latencyMs !== null) metrics().receiptLatency.observe({ operator }, latencyMs / 1000);
}

/** ended: the message the receipt delivered (DELIVRD on its last part) or failed, and when its carrier's acceptance began. */
type Counted = { operator: string; counter: Counter; ended: { id: string; test: boolean; dispatchedAt: Date | null } };
type Recorded = { matches: ReceiptMatch[]; counted: Counted[] };

async function recordInTransaction(tx: SqlExecutor, entries: ReceiptEntry[], now: Date): Promise<Recorded> {
  const { matches, changes } = planChanges(entries, await findParts(tx, entries));
  if (changes.length === 0) return { matches, counted: [] };
  await changeParts(tx, changes, now);
  const counted = await markDeliveredWhenComplete(tx, partsOfMessages(changes, "delivered"), now);
  for (const { part, receipt } of changes.filter((change) => change.status === "failed")) {
    const failed = await failMessage(tx, part.messageId, receipt, now);
    if (failed) counted.push(failed);
  }
  return { matches, counted };
}

/**
 * The batch's changes when every one is a delivery or an intermediate state of a one-part message
 * without a webhook; null for any other batch, which the transaction reads again and records.
 */
async function plainChanges(
  executor: SqlExecutor,
  entries: ReceiptEntry[],
): Promise<{ changes: PlainPartChange[]; done: (delivered: DeliveredMessage[]) => Recorded } | null> {
  const { matches, changes } = planChanges(entries, await findParts(executor, entries, { withMessage: true }));
  const plain: PlainPartChange[] = [];
  for (const { part, receipt, status } of changes) {
    if (status === "failed" || Number(part.partCount) !== 1 || part.webhookUrl || hasStatusEndpoints(part.accountId!)) return null;
    plain.push({ partId: part.id, status, stat: receipt.stat, err: receipt.err });
  }
  return {
    changes: plain,
    done: (delivered) => ({
      matches,
      counted: delivered.map((row) => deliveredCount(row)),
    }),
  };
}

/** Which part each receipt is for, and the change of each part that is still "submitted". */
function planChanges(entries: ReceiptEntry[], parts: (Part | undefined)[]): { matches: ReceiptMatch[]; changes: PartChange[] } {
  const changes = new Map<string, PartChange>();
  const matches = entries.map(({ receipt }, index): ReceiptMatch => {
    const part = parts[index];
    if (!part) return "unknown";
    // A part leaves "submitted" once; a repeated receipt in this batch or an earlier one changes nothing.
    const earlier = changes.get(part.id);
    if (part.status !== "submitted" || (earlier && earlier.status !== "submitted")) return "matched";
    changes.set(part.id, {
      part,
      receipt,
      status: receipt.stat === "DELIVRD" ? "delivered" : FAILED_STATS.has(receipt.stat) ? "failed" : "submitted",
    });
    return "matched";
  });
  return { matches, changes: [...changes.values()] };
}

/** The part each receipt is for (the newest, if a carrier reused an id), or undefined. */
async function findParts(tx: SqlExecutor, entries: ReceiptEntry[], options: { withMessage?: boolean } = {}): Promise<(Part | undefined)[]> {
  const message = options.withMessage
    ? {
        columns: `, m."webhookUrl", m."accountId", (SELECT COUNT(*) FROM "MessagePart" o WHERE o."messageId" = p."messageId") AS "partCount"`,
        join: ` JOIN "Message" m ON m."id" = p."messageId"`,
      }
    : { columns: "", join: "" };
  const found: (Part | undefined)[] = Array(entries.length);
  for (const operator of new Set(entries.map((entry) => entry.operator))) {
    const indexes = entries.flatMap((entry, index) => (entry.operator === operator ? [index] : []));
    const candidatesOf = new Map(indexes.map((index) => [index, carrierIdCandidates(entries[index].receipt.messageId)]));
    const ids = inList([...new Set([...candidatesOf.values()].flat())]);
    const rows = await tx.all<Part>(
      `SELECT p."id", p."messageId", p."status", p."carrierMessageId", p."createdAt"${message.columns}
       FROM "MessagePart" p${message.join} WHERE p."operator" = ? AND p."carrierMessageId" IN ${ids.text}`,
      [operator, ...ids.params],
    );
    const byCarrierId = new Map<string, Part[]>();
    for (const row of rows) byCarrierId.set(row.carrierMessageId, [...(byCarrierId.get(row.carrierMessageId) ?? []), row]);
    for (const [index, candidates] of candidatesOf) {
      const matching = candidates.flatMap((candidate) => byCarrierId.get(candidate) ?? []);
      found[index] = matching.reduce<Part | undefined>(
        (newest, part) => (newest && createdAt(newest) >= createdAt(part) ? newest : part),
        undefined,
      );
    }
  }
  return found;
}

function createdAt(part: Part): number {
  return fromDbTime(part.createdAt).getTime();
}

async function changeParts(tx: SqlExecutor, changes: PartChange[], now: Date): Promise<void> {
  await getStores().delivery.holdMessages(
    tx,
    changes.map(({ part }) => part.messageId),
  );
  const rows = valuesTable(
    tx,
    ["text", "text", "text", "text"],
    changes.map(({ part, receipt, status }) => [part.id, status, receipt.stat, receipt.err]),
  );
  await tx.run(
    `UPDATE "MessagePart" SET "status" = v.column2, "receiptStat" = v.column3, "receiptError" = v.column4, "receiptAt" = ?
     FROM ${rows.text} WHERE "MessagePart"."id" = v.column1`,
    [toDbTime(now), ...rows.params],
  );
}

function partsOfMessages(changes: PartChange[], status: PartChange["status"]): string[] {
  return [...new Set(changes.filter((change) => change.status === status).map(({ part }) => part.messageId))];
}

async function failMessage(tx: SqlExecutor, messageId: string, receipt: DeliveryReceipt, now: Date): Promise<Counted | null> {
  const at = toDbTime(now);
  const reason = `receipt ${receipt.stat}${receipt.err ? ` err:${receipt.err}` : ""}`;
  const row = await tx.get(
    `UPDATE "Message" SET "status" = ${SQL_STATUS.failed}, "operatorResponse" = ?, "lastError" = ?, "finishedAt" = ?, "updatedAt" = ? WHERE "id" = ? AND "status" = ${SQL_STATUS.success} RETURNING *`,
    [receipt.stat, reason, at, at, messageId],
  );
  if (!row) return null;
  const message = parseMessageRow(row);
  await recordMessageEvent(tx, messageId, "failed", reason, now);
  await refundMessage(tx, message, `carrier reported ${receipt.stat}`, now);
  await enqueueWebhook(tx, message, "message.failed", now);
  return {
    operator: message.operator,
    counter: "messagesFailed",
    ended: { id: message.id, test: message.test, dispatchedAt: message.dispatchedAt },
  };
}

/** Only the messages no part of which is left without its DELIVRD receipt. */
async function markDeliveredWhenComplete(tx: SqlExecutor, messageIds: string[], now: Date): Promise<Counted[]> {
  if (messageIds.length === 0) return [];
  const at = toDbTime(now);
  // Joined to a VALUES list, not `"id" IN (…)`: with IN, SQLite's planner walks the status index (every message in "success").
  const ids = valuesTable(
    tx,
    ["text"],
    messageIds.map((id) => [id]),
  );
  const rows = await tx.all<DeliveredMessage & { accountId: string; webhookUrl: string | null }>(
    `UPDATE "Message" SET "deliveredAt" = ?, "operatorResponse" = 'DELIVRD', "updatedAt" = ? FROM ${ids.text}
     WHERE "Message"."id" = v.column1 AND "Message"."status" = ${SQL_STATUS.success} AND "Message"."deliveredAt" IS NULL
       AND NOT EXISTS (SELECT 1 FROM "MessagePart" WHERE "MessagePart"."messageId" = "Message"."id" AND "MessagePart"."status" <> 'delivered')
     RETURNING "Message"."id", "Message"."accountId", "Message"."operator", "Message"."webhookUrl", "Message"."test", "Message"."dispatchedAt"`,
    [at, at, ...ids.params],
  );
  await enqueueWebhooks(
    tx,
    rows.filter((row) => row.webhookUrl || hasStatusEndpoints(row.accountId)).map((row) => row.id),
    "message.delivered",
    now,
  );
  return rows.map((row) => deliveredCount(row));
}

function deliveredCount(row: DeliveredMessage): Counted {
  return {
    operator: row.operator,
    counter: "messagesDelivered",
    ended: { id: row.id, test: row.test === true || row.test === 1, dispatchedAt: fromDbTimeOrNull(row.dispatchedAt) },
  };
}
