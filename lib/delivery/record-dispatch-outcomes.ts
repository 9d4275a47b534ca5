// Writes what carriers answered for a batch of dispatched messages, in one transaction (group
// commit: the dispatcher hands over every answer that arrived while the previous batch was being
// written). Per message: the status change, its parts, its timeline, its webhook, and on failure
// the refund. A write only lands while this dispatcher still holds the lease; a message whose lease
// ran out belongs to whoever claimed it next.
import crypto from "node:crypto";
import { sql } from "@/lib/db/client";
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { insertRows } from "@/lib/db/insert-rows";
import { metrics } from "@/lib/metrics";
import type { SubmitOutcome } from "@/lib/smpp/carrier-connection";
import { enqueueWebhook } from "@/lib/webhooks/enqueue-webhook";
import { parseMessageRow, type Message } from "@/lib/messages/message-row";
import { recordMessageEvent } from "./record-message-event";
import { refundMessage } from "./refund-message";
import { retryDelayMs, type RetryPolicy } from "./retry-policy";

export type DispatchOutcome = { message: Message; owner: string; startedAt: Date; result: SubmitOutcome };

type Recorded = { operator: string; counter: "messagesDispatched" | "messagesFailed" | null };
/** Rows of the common outcomes, written with multi-row INSERTs once per batch. */
type BatchRows = { parts: unknown[][]; events: unknown[][] };

const PART_COLUMNS = ["id", "messageId", "partNumber", "operator", "carrierMessageId", "status", "createdAt"] as const;
const EVENT_COLUMNS = ["messageId", "kind", "detail", "createdAt"] as const;

export async function recordDispatchOutcomes(outcomes: DispatchOutcome[], policy: RetryPolicy): Promise<{ recorded: number; leaseLost: number }> {
  const now = new Date();
  const recorded = await sql().transaction(async (tx) => {
    const results: Recorded[] = [];
    // Parts are written only here, once per message (success is final), so they never collide.
    const rows: BatchRows = { parts: [], events: [] };
    for (const outcome of outcomes) {
      const result = await recordOutcome(tx, outcome, policy, now, rows);
      if (result) results.push(result);
    }
    await insertRows(tx, "MessagePart", PART_COLUMNS, rows.parts);
    await insertRows(tx, "MessageEvent", EVENT_COLUMNS, rows.events);
    return results;
  });
  for (const { operator, counter } of recorded) if (counter) metrics()[counter].inc({ operator });
  return { recorded: recorded.length, leaseLost: outcomes.length - recorded.length };
}

async function recordOutcome(tx: SqlExecutor, outcome: DispatchOutcome, policy: RetryPolicy, now: Date, rows: BatchRows): Promise<Recorded | null> {
  const { message, result, startedAt } = outcome;
  const at = toDbTime(now);
  const attempt = `attempt ${message.attempts} to ${message.operator}${message.test ? " (simulator: test message)" : ""}`;
  const leased = `"id" = ? AND "leaseOwner" = ? AND "status" = 'processing' RETURNING *`;

  if (result.kind === "accepted") {
    const row = await tx.get(
      `UPDATE "Message" SET "status" = 'success', "operatorResponse" = ?, "carrierMessageId" = ?, "dispatchedAt" = ?, "finishedAt" = ?,
         "leaseOwner" = NULL, "leaseUntil" = NULL, "lastError" = NULL, "updatedAt" = ? WHERE ${leased}`,
      [result.response, result.carrierMessageIds[0], toDbTime(startedAt), at, at, message.id, outcome.owner],
    );
    if (!row) return null;
    for (const [index, carrierMessageId] of result.carrierMessageIds.entries()) {
      rows.parts.push([crypto.randomUUID(), message.id, index + 1, message.operator, carrierMessageId, "submitted", at]);
    }
    rows.events.push([message.id, "dispatched", `${attempt}, ${result.carrierMessageIds.length} part(s)`, toDbTime(startedAt)]);
    rows.events.push([message.id, "success", result.response, at]);
    await enqueueWebhook(tx, parseMessageRow(row), "message.success", now);
    return { operator: message.operator, counter: "messagesDispatched" };
  }

  if (result.temporary && message.attempts < policy.maxAttempts) {
    const delay = retryDelayMs(message.attempts, policy);
    const row = await tx.get(
      `UPDATE "Message" SET "status" = 'enqueued', "nextAttemptAt" = ?, "lastError" = ?, "leaseOwner" = NULL, "leaseUntil" = NULL, "updatedAt" = ? WHERE ${leased}`,
      [toDbTime(new Date(now.getTime() + delay)), result.response, at, message.id, outcome.owner],
    );
    if (!row) return null;
    rows.events.push([message.id, "retry", `${attempt}: ${result.response}; next attempt in ${Math.ceil(delay / 1000)} s`, at]);
    return { operator: message.operator, counter: null };
  }

  // Failures are rare: written one by one, so the refund's event follows the failure's in the timeline.
  const reason = result.temporary ? `${result.response} (gave up after ${message.attempts} attempts)` : result.response;
  const row = await tx.get(
    `UPDATE "Message" SET "status" = 'failed', "operatorResponse" = ?, "lastError" = ?, "dispatchedAt" = COALESCE("dispatchedAt", ?), "finishedAt" = ?,
       "leaseOwner" = NULL, "leaseUntil" = NULL, "updatedAt" = ? WHERE ${leased}`,
    [result.carrierStatus === null ? message.operatorResponse : result.response, reason, toDbTime(startedAt), at, at, message.id, outcome.owner],
  );
  if (!row) return null;
  await recordMessageEvent(tx, message.id, "dispatched", attempt, startedAt);
  await recordMessageEvent(tx, message.id, "failed", reason, now);
  await refundMessage(tx, message, "message failed at the carrier", now);
  await enqueueWebhook(tx, parseMessageRow(row), "message.failed", now);
  return { operator: message.operator, counter: "messagesFailed" };
}
