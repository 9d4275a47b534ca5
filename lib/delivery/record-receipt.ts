// A carrier's delivery receipt for one part. DELIVRD on every part sets the message's delivered_at
// and operator_response = "DELIVRD". UNDELIV, REJECTD, EXPIRED or DELETED on any part ends the
// message failed with the stat as operator_response, and refunds it (README "Refund policy").
// Intermediate states (ENROUTE, ACCEPTD, UNKNOWN) are noted on the part only. A repeated receipt
// changes nothing.
import { sql } from "@/lib/db/client";
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { metrics } from "@/lib/metrics";
import { carrierIdCandidates, FAILED_STATS, type DeliveryReceipt } from "@/lib/smpp/parse-receipt";
import { enqueueWebhook } from "@/lib/webhooks/enqueue-webhook";
import { parseMessageRow } from "@/lib/messages/message-row";
import { recordMessageEvent, recordMessageEvents, type MessageEventRow } from "./record-message-event";
import { refundMessage } from "./refund-message";

export type ReceiptMatch = "matched" | "unknown";
export type ReceiptEntry = { operator: string; receipt: DeliveryReceipt };
type Counter = "messagesDelivered" | "messagesFailed";
/** "delivered" events of a batch, written with multi-row INSERTs (a failure's events stay in order, one by one). */
type EventRows = MessageEventRow[];

/** Records receipts in one transaction (the receipt handler group-commits them); one match per entry. */
export async function recordReceipts(entries: ReceiptEntry[]): Promise<ReceiptMatch[]> {
  const now = new Date();
  const results = await sql().transaction(async (tx) => {
    const recorded: { match: ReceiptMatch; counter: Counter | null }[] = [];
    const events: EventRows = [];
    for (const entry of entries) recorded.push(await recordReceipt(tx, entry, now, events));
    await recordMessageEvents(tx, events);
    return recorded;
  });
  results.forEach(({ counter }, index) => counter && metrics()[counter].inc({ operator: entries[index].operator }));
  return results.map(({ match }) => match);
}

async function recordReceipt(tx: SqlExecutor, { operator, receipt }: ReceiptEntry, now: Date, events: EventRows): Promise<{ match: ReceiptMatch; counter: Counter | null }> {
  const candidates = carrierIdCandidates(receipt.messageId);
  const part = await tx.get<{ id: string; messageId: string; status: string }>(
    `SELECT "id", "messageId", "status" FROM "MessagePart" WHERE "operator" = ? AND "carrierMessageId" IN (${candidates.map(() => "?").join(", ")})
     ORDER BY "createdAt" DESC LIMIT 1`,
    [operator, ...candidates],
  );
  if (!part) return { match: "unknown", counter: null };
  if (part.status !== "submitted") return { match: "matched", counter: null };
  // Receipts of two parts of one message may be recorded at once: the message row lock orders them.
  if (tx.dialect === "postgres") await tx.run(`SELECT "id" FROM "Message" WHERE "id" = ? FOR UPDATE`, [part.messageId]);
  const final = receipt.stat === "DELIVRD" ? "delivered" : FAILED_STATS.has(receipt.stat) ? "failed" : "submitted";
  await tx.run(`UPDATE "MessagePart" SET "status" = ?, "receiptStat" = ?, "receiptError" = ?, "receiptAt" = ? WHERE "id" = ?`, [
    final,
    receipt.stat,
    receipt.err,
    toDbTime(now),
    part.id,
  ]);
  const counter = final === "failed" ? await failMessage(tx, part.messageId, receipt, now) : final === "delivered" ? await markDeliveredWhenComplete(tx, part.messageId, now, events) : null;
  return { match: "matched", counter };
}

async function failMessage(tx: SqlExecutor, messageId: string, receipt: DeliveryReceipt, now: Date): Promise<Counter | null> {
  const at = toDbTime(now);
  const reason = `receipt ${receipt.stat}${receipt.err ? ` err:${receipt.err}` : ""}`;
  const row = await tx.get(
    `UPDATE "Message" SET "status" = 'failed', "operatorResponse" = ?, "lastError" = ?, "finishedAt" = ?, "updatedAt" = ? WHERE "id" = ? AND "status" = 'success' RETURNING *`,
    [receipt.stat, reason, at, at, messageId],
  );
  if (!row) return null;
  const message = parseMessageRow(row);
  await recordMessageEvent(tx, messageId, "failed", reason, now);
  await refundMessage(tx, message, `carrier reported ${receipt.stat}`, now);
  await enqueueWebhook(tx, message, "message.failed", now);
  return "messagesFailed";
}

/** Only once no part of the message is left without its DELIVRD receipt. */
async function markDeliveredWhenComplete(tx: SqlExecutor, messageId: string, now: Date, events: EventRows): Promise<Counter | null> {
  const at = toDbTime(now);
  const row = await tx.get(
    `UPDATE "Message" SET "deliveredAt" = ?, "operatorResponse" = 'DELIVRD', "updatedAt" = ? WHERE "id" = ? AND "status" = 'success' AND "deliveredAt" IS NULL
       AND NOT EXISTS (SELECT 1 FROM "MessagePart" WHERE "messageId" = ? AND "status" <> 'delivered') RETURNING *`,
    [at, at, messageId, messageId],
  );
  if (!row) return null;
  events.push([messageId, "delivered", "receipt DELIVRD", at]);
  await enqueueWebhook(tx, parseMessageRow(row), "message.delivered", now);
  return "messagesDelivered";
}
