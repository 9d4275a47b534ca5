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
import { recordMessageEvent, recordMessageEvents, type MessageEventRow } from "./record-message-event";
import { refundMessage } from "./refund-message";
import { retryDelayMs, type RetryPolicy } from "./retry-policy";

export type DispatchOutcome = { message: Message; owner: string; startedAt: Date; result: SubmitOutcome };

type Recorded = { operator: string; counter: "messagesDispatched" | "messagesFailed" | null };
/** Rows of the common outcomes, written with multi-row INSERTs once per batch. */
type BatchRows = { parts: unknown[][]; events: MessageEventRow[] };

const PART_COLUMNS = ["id", "messageId", "partNumber", "operator", "carrierMessageId", "status", "createdAt"] as const;

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
    await recordMessageEvents(tx, rows.events);
    return results;
  });
  for (const { operator, counter } of recorded) if (counter) metrics()[counter].inc({ operator });
  return { recorded: recorded.length, leaseLost: outcomes.length - recorded.length };
}

async function recordOutcome(tx: SqlExecutor, outcome: DispatchOutcome, policy: RetryPolicy, now: Date, rows: BatchRows): Promise<Recorded | null> {
  const { message, result, startedAt } = outcome;
  const at = toDbTime(now);
  const attempt = `attempt ${message.attempts} to ${message.operator}${message.test ? " (simulator: test message)" : ""}`;

  if (result.kind === "accepted") {
    const row = await updateLeased(
      tx,
      outcome,
      `"status" = 'success', "operatorResponse" = ?, "carrierMessageId" = ?, "dispatchedAt" = ?, "finishedAt" = ?, "lastError" = NULL, "updatedAt" = ?`,
      [result.response, result.carrierMessageIds[0], toDbTime(startedAt), at, at],
    );
    if (!row) return null;
    for (const [index, carrierMessageId] of result.carrierMessageIds.entries()) {
      rows.parts.push([crypto.randomUUID(), message.id, index + 1, message.operator, carrierMessageId, "submitted", at]);
    }
    rows.events.push([message.id, "dispatched", `${attempt}, ${result.carrierMessageIds.length} part(s)`, toDbTime(startedAt)]);
    rows.events.push([message.id, "success", result.response, at]);
    if (row !== true) await enqueueWebhook(tx, parseMessageRow(row), "message.success", now);
    return { operator: message.operator, counter: "messagesDispatched" };
  }

  if (result.temporary && message.attempts < policy.maxAttempts) {
    const delay = retryDelayMs(message.attempts, policy);
    const row = await updateLeased(tx, outcome, `"status" = 'enqueued', "nextAttemptAt" = ?, "lastError" = ?, "updatedAt" = ?`, [
      toDbTime(new Date(now.getTime() + delay)),
      result.response,
      at,
    ]);
    if (!row) return null;
    rows.events.push([message.id, "retry", `${attempt}: ${result.response}; next attempt in ${Math.ceil(delay / 1000)} s`, at]);
    return { operator: message.operator, counter: null };
  }

  // Failures are rare: written one by one, so the refund's event follows the failure's in the timeline.
  const reason = result.temporary ? `${result.response} (gave up after ${message.attempts} attempts)` : result.response;
  const row = await updateLeased(
    tx,
    outcome,
    `"status" = 'failed', "operatorResponse" = ?, "lastError" = ?, "dispatchedAt" = COALESCE("dispatchedAt", ?), "finishedAt" = ?, "updatedAt" = ?`,
    [result.carrierStatus === null ? message.operatorResponse : result.response, reason, toDbTime(startedAt), at, at],
  );
  if (!row) return null;
  await recordMessageEvent(tx, message.id, "dispatched", attempt, startedAt);
  await recordMessageEvent(tx, message.id, "failed", reason, now);
  await refundMessage(tx, message, "message failed at the carrier", now);
  if (row !== true) await enqueueWebhook(tx, parseMessageRow(row), "message.failed", now);
  return { operator: message.operator, counter: "messagesFailed" };
}

/**
 * Applies a status change (`set`, ending the lease) only while this dispatcher still holds the
 * lease; false when it does not. The changed row is read back only for a webhook's payload.
 */
async function updateLeased(tx: SqlExecutor, { message, owner }: DispatchOutcome, set: string, params: unknown[]): Promise<Record<string, unknown> | boolean> {
  const text = `UPDATE "Message" SET ${set}, "leaseOwner" = NULL, "leaseUntil" = NULL WHERE "id" = ? AND "leaseOwner" = ? AND "status" = 'processing'`;
  const values = [...params, message.id, owner];
  if (!message.webhookUrl) return (await tx.run(text, values)) > 0;
  return (await tx.get<Record<string, unknown>>(`${text} RETURNING *`, values)) ?? false;
}
