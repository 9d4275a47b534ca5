// A carrier's delivery receipt for one part. DELIVRD on every part sets the message's delivered_at
// and operator_response = "DELIVRD". UNDELIV, REJECTD, EXPIRED or DELETED on any part ends the
// message failed with the stat as operator_response, and refunds it (docs/delivery.md, Refunds).
// Intermediate states (ENROUTE, ACCEPTD, UNKNOWN) are noted on the part only. A repeated receipt
// changes nothing.
import { SQL_STATUS } from "@/lib/model/message-status";
import { getStores, type DeliveredMessage, type StoredPart } from "@/lib/db/stores";
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { parseMessageRow } from "@/lib/db/stores/shared/rows";
import { metrics } from "@/lib/metrics";
import { carrierIdCandidates, FAILED_STATS, type DeliveryReceipt } from "@/lib/smpp/parse-receipt";
import { enqueueWebhook, enqueueWebhooks } from "@/lib/webhooks/enqueue-webhook";
import { hasStatusEndpoints, refreshEndpointCache } from "@/lib/webhooks/account-events";
import { recordMessageEvent } from "./record-message-event";
import { refundMessage } from "./refund-message";
import { acceptedAtOfId, type ReceiptHours } from "./hour-stats";

export type ReceiptMatch = "matched" | "unknown";
export type ReceiptEntry = { operator: string; receipt: DeliveryReceipt };
type Counter = "messagesDelivered" | "messagesFailed";
type PlannedChange = { part: StoredPart; receipt: DeliveryReceipt; status: "delivered" | "failed" | "submitted" };

/** delivered: the message a DELIVRD receipt completed. */
type Counted = { operator: string; counter: Counter; ended: { id: string; test: boolean; dispatchedAt: Date | null } };

/**
 * Records a batch of receipts (the receipt handler group-commits them): finds their parts, then the
 * delivery store changes the parts and delivers the messages they complete. The usual batch
 * (deliveries and intermediate states of messages without a webhook) is that change alone; webhooks
 * and failures (with their refunds) are written in its transaction, after it.
 */
export async function recordReceipts(entries: ReceiptEntry[], hours?: ReceiptHours): Promise<ReceiptMatch[]> {
  const now = new Date();
  await refreshEndpointCache();
  const { matches, changes } = planChanges(entries, await findParts(entries));
  if (changes.length === 0) return matches;
  const failed = changes.filter((change) => change.status === "failed");
  const rest =
    failed.length > 0 || changes.some(({ part, status }) => status === "delivered" && hasWebhook(part))
      ? async (tx: SqlExecutor, delivered: DeliveredMessage[]): Promise<Counted[]> => {
          await enqueueWebhooks(
            tx,
            delivered.filter(hasWebhook).map(({ id }) => id),
            "message.delivered",
            now,
          );
          const counted: Counted[] = [];
          for (const { part, receipt } of failed) {
            const result = await failMessage(tx, part.messageId, receipt, now);
            if (result) counted.push(result);
          }
          return counted;
        }
      : null;
  const { delivered, then } = await getStores().delivery.recordPartChanges(
    changes.map(({ part, receipt, status }) => ({ partId: part.id, status, stat: receipt.stat, err: receipt.err })),
    now,
    rest,
  );
  const counted = [
    ...delivered.map(({ id, operator, test, dispatchedAt }): Counted => ({
      operator,
      counter: "messagesDelivered",
      ended: { id, test, dispatchedAt },
    })),
    ...(then ?? []),
  ];
  for (const { operator, counter, ended } of counted) {
    metrics()[counter].inc({ operator });
    if (ended.test) continue;
    if (ended.dispatchedAt) hours?.of(operator).receipted(ended.dispatchedAt.getTime(), now.getTime());
    if (counter === "messagesDelivered") observeReceiptLatency(operator, ended.id, now, hours);
  }
  return matches;
}

/** Whether a status change of this message is a webhook event (its own webhook_url, or its account's endpoints). */
function hasWebhook(message: { accountId: string; webhookUrl: string | null }): boolean {
  return message.webhookUrl !== null || hasStatusEndpoints(message.accountId);
}

/** The time from the carrier's acceptance (the part id's time) to the receipt, for the Carriers page and /metrics. */
function observeReceiptLatency(operator: string, messageId: string, now: Date, hours?: ReceiptHours): void {
  const acceptedAt = acceptedAtOfId(messageId);
  const latencyMs = acceptedAt === null ? null : Math.max(0, now.getTime() - acceptedAt);
  hours?.of(operator).delivered(latencyMs, now.getTime());
  if (latencyMs !== null) metrics().receiptLatency.observe({ operator }, latencyMs / 1000);
}

/** Which part each receipt is for, and the change of each part that is still "submitted". */
function planChanges(entries: ReceiptEntry[], parts: (StoredPart | undefined)[]): { matches: ReceiptMatch[]; changes: PlannedChange[] } {
  const changes = new Map<string, PlannedChange>();
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
async function findParts(entries: ReceiptEntry[]): Promise<(StoredPart | undefined)[]> {
  const found: (StoredPart | undefined)[] = Array(entries.length);
  for (const operator of new Set(entries.map((entry) => entry.operator))) {
    const indexes = entries.flatMap((entry, index) => (entry.operator === operator ? [index] : []));
    const candidatesOf = new Map(indexes.map((index) => [index, carrierIdCandidates(entries[index].receipt.messageId)]));
    const parts = await getStores().delivery.findParts(operator, [...new Set([...candidatesOf.values()].flat())]);
    const byCarrierId = new Map<string, StoredPart[]>();
    for (const part of parts) byCarrierId.set(part.carrierMessageId, [...(byCarrierId.get(part.carrierMessageId) ?? []), part]);
    for (const [index, candidates] of candidatesOf) {
      const matching = candidates.flatMap((candidate) => byCarrierId.get(candidate) ?? []);
      found[index] = matching.reduce<StoredPart | undefined>(
        (newest, part) => (newest && newest.createdAt.getTime() >= part.createdAt.getTime() ? newest : part),
        undefined,
      );
    }
  }
  return found;
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
