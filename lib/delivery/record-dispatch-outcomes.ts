// Writes what carriers answered for a batch of dispatched messages, in one transaction (group
// commit: the dispatcher hands over every answer that arrived while the previous batch was being
// written). Per message: the status change, its parts, its webhook, and on retry or failure its
// timeline event and refund. A write only lands while this dispatcher still holds the lease; a
// message whose lease ran out belongs to whoever claimed it next. Acceptances, nearly every answer,
// are written with one statement per batch and table; retries and failures one by one. A batch of
// acceptances without webhooks is written by the engine's delivery store its fastest way.
import { SQL_STATUS } from "@/lib/model/message-status";
import { timeOrderedUuid } from "@/lib/model/ids";
import { getStores, type CarrierAcceptance } from "@/lib/db/stores";
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { valuesTable } from "@/lib/db/batch-lists";
import { insertRows } from "@/lib/db/insert-rows";
import { metrics } from "@/lib/metrics";
import type { SubmitOutcome } from "@/lib/smpp/carrier-connection";
import { enqueueWebhook, enqueueWebhooks } from "@/lib/webhooks/enqueue-webhook";
import { hasStatusEndpoints, refreshEndpointCache } from "@/lib/webhooks/account-events";
import { queueStatusChanges } from "@/lib/webhooks/status-events";
import { parseMessageRow } from "@/lib/messages/message-row";
import type { ClaimedMessage } from "./claim-messages";
import { describeAttempt } from "@/lib/messages/message-timeline";
import { recordMessageEvent } from "./record-message-event";
import { refundMessage } from "./refund-message";
import { EXPIRED_REASON } from "./fail-queued-messages";
import { retryDelayMs, type RetryPolicy } from "./retry-policy";

export type DispatchOutcome = { message: ClaimedMessage; owner: string; startedAt: Date; result: SubmitOutcome };
type Accepted = DispatchOutcome & { result: Extract<SubmitOutcome, { kind: "accepted" }> };
type Refused = DispatchOutcome & { result: Extract<SubmitOutcome, { kind: "rejected" }> };

type Recorded = { id: string; counter: "messagesDispatched" | "messagesFailed" | null };

const PART_COLUMNS = ["id", "messageId", "partNumber", "operator", "carrierMessageId", "status", "createdAt"] as const;

function isAccepted(outcome: DispatchOutcome): outcome is Accepted {
  return outcome.result.kind === "accepted";
}

function isRefused(outcome: DispatchOutcome): outcome is Refused {
  return outcome.result.kind === "rejected";
}

export async function recordDispatchOutcomes(
  outcomes: DispatchOutcome[],
  policy: RetryPolicy,
): Promise<{ recorded: number; leaseLost: number }> {
  const now = new Date();
  await refreshEndpointCache();
  // What the transaction recorded of each message; the engine's one-step write records acceptances only.
  const inTransaction = new Map<string, Recorded>();
  const landed = await getStores().delivery.recordOutcomes(plainAcceptances(outcomes), now, async (tx) => {
    const results = await recordAcceptances(tx, outcomes.filter(isAccepted), now);
    for (const outcome of outcomes.filter(isRefused)) {
      const result = await recordRefusal(tx, outcome, policy, now);
      if (result) results.push(result);
    }
    for (const result of results) inTransaction.set(result.id, result);
    return results.map((result) => result.id);
  });
  const operatorOf = new Map(outcomes.map(({ message }) => [message.id, message.operator]));
  for (const id of landed) {
    const { counter } = inTransaction.get(id) ?? { counter: "messagesDispatched" };
    if (counter) metrics()[counter].inc({ operator: operatorOf.get(id)! });
  }
  return { recorded: landed.length, leaseLost: outcomes.length - landed.length };
}

/** Whether a status change of this message is a webhook event (its own webhook_url, or its account's endpoints). */
function hasWebhook(message: ClaimedMessage): boolean {
  return message.webhookUrl !== null || hasStatusEndpoints(message.accountId);
}

/** Every answer an acceptance of a message without a webhook (the usual batch): the store may write it in one step. */
function plainAcceptances(outcomes: DispatchOutcome[]): CarrierAcceptance[] | null {
  if (!outcomes.every((outcome): outcome is Accepted => isAccepted(outcome) && !hasWebhook(outcome.message))) return null;
  return outcomes.map(({ message, owner, startedAt, result }) => ({
    messageId: message.id,
    operator: message.operator,
    owner,
    startedAt,
    response: result.response,
    carrierMessageIds: result.carrierMessageIds,
  }));
}

/** Parts are written only here, once per message (success is final), so they never collide. */
async function recordAcceptances(tx: SqlExecutor, outcomes: Accepted[], now: Date): Promise<Recorded[]> {
  if (outcomes.length === 0) return [];
  const at = toDbTime(now);
  const answers = valuesTable(
    tx,
    ["text", "text", "text", "text", "timestamp"],
    outcomes.map(({ message, owner, result, startedAt }) => [
      message.id,
      owner,
      result.response,
      result.carrierMessageIds[0],
      toDbTime(startedAt),
    ]),
  );
  const updated = await tx.all<{ id: string }>(
    `UPDATE "Message" SET "status" = ${SQL_STATUS.success}, "operatorResponse" = v.column3, "carrierMessageId" = v.column4, "dispatchedAt" = v.column5,
       "finishedAt" = ?, "lastError" = NULL, "updatedAt" = ?, "leaseOwner" = NULL, "leaseUntil" = NULL
     FROM ${answers.text}
     WHERE "Message"."id" = v.column1 AND "Message"."leaseOwner" = v.column2 AND "Message"."status" = ${SQL_STATUS.processing}
     RETURNING "Message"."id"`,
    [at, at, ...answers.params],
  );
  const updatedIds = new Set(updated.map((row) => row.id));
  const landed = outcomes.filter((outcome) => updatedIds.has(outcome.message.id));
  // The parts' createdAt is the carrier's acceptance in the message's timeline.
  const parts = landed.flatMap(({ message, result }) =>
    result.carrierMessageIds.map((carrierMessageId, index) => [
      timeOrderedUuid(),
      message.id,
      index + 1,
      message.operator,
      carrierMessageId,
      "submitted",
      at,
    ]),
  );
  await insertRows(tx, "MessagePart", PART_COLUMNS, parts);
  await enqueueWebhooks(
    tx,
    landed.filter(({ message }) => hasWebhook(message)).map(({ message }) => message.id),
    "message.success",
    now,
  );
  return landed.map(({ message }) => ({ id: message.id, counter: "messagesDispatched" }));
}

async function recordRefusal(tx: SqlExecutor, outcome: Refused, policy: RetryPolicy, now: Date): Promise<Recorded | null> {
  const { message, result, startedAt } = outcome;
  const at = toDbTime(now);
  const attempt = describeAttempt(message);

  // Nothing left (the bind went down after the claim), or the bind dropped before any answer: back
  // to the queue, the attempt not counted, for whichever of the carrier's binds is up.
  if (result.notSent || result.bindLost) {
    const row = await updateLeased(
      tx,
      outcome,
      `"status" = ${SQL_STATUS.enqueued}, "attempts" = "attempts" - 1, "nextAttemptAt" = ?, "lastError" = ?, "updatedAt" = ?`,
      [at, result.response, at],
    );
    if (!row) return null;
    const detail = result.bindLost
      ? `no answer: ${result.response}; sent again over a bind that is up`
      : `not sent: ${result.response}; waits for the bind`;
    await recordMessageEvent(tx, message.id, "retry", detail, now);
    await queueRequeuedStatus(tx, message, row, now);
    return { id: message.id, counter: null };
  }

  if (result.temporary && message.attempts < policy.maxAttempts) {
    const delay = retryDelayMs(message.attempts, policy);
    const row = await updateLeased(
      tx,
      outcome,
      `"status" = ${SQL_STATUS.enqueued}, "nextAttemptAt" = ?, "lastError" = ?, "updatedAt" = ?`,
      [toDbTime(new Date(now.getTime() + delay)), result.response, at],
    );
    if (!row) return null;
    await recordMessageEvent(tx, message.id, "retry", `${attempt}: ${result.response}; next attempt in ${Math.ceil(delay / 1000)} s`, now);
    await queueRequeuedStatus(tx, message, row, now);
    return { id: message.id, counter: null };
  }

  // Failures are rare: written one by one, so the refund's event follows the failure's in the timeline.
  const reason = result.temporary ? `${result.response} (gave up after ${message.attempts} attempts)` : result.response;
  const row = await updateLeased(
    tx,
    outcome,
    `"status" = ${SQL_STATUS.failed}, "operatorResponse" = ?, "lastError" = ?, "dispatchedAt" = COALESCE("dispatchedAt", ?), "finishedAt" = ?, "updatedAt" = ?`,
    [result.carrierStatus === null && !result.expired ? message.operatorResponse : result.response, reason, toDbTime(startedAt), at, at],
  );
  if (!row) return null;
  await recordMessageEvent(tx, message.id, "failed", result.expired ? EXPIRED_REASON : reason, now);
  await refundMessage(tx, message, result.expired ? EXPIRED_REASON : "message failed at the carrier", now);
  if (row !== true) await enqueueWebhook(tx, parseMessageRow(row), "message.failed", now);
  return { id: message.id, counter: "messagesFailed" };
}

/** message.status (enqueued) for a retry's return to the queue, when the account has status endpoints. */
async function queueRequeuedStatus(
  tx: SqlExecutor,
  message: ClaimedMessage,
  row: Record<string, unknown> | true,
  now: Date,
): Promise<void> {
  if (row === true || !hasStatusEndpoints(message.accountId)) return;
  await queueStatusChanges(tx, [{ accountId: message.accountId, message: parseMessageRow(row) }], now);
}

/**
 * Applies a status change (`set`, ending the lease) only while this dispatcher still holds the
 * lease; false when it does not. The changed row is read back only for a webhook's payload.
 */
async function updateLeased(
  tx: SqlExecutor,
  { message, owner }: DispatchOutcome,
  set: string,
  params: unknown[],
): Promise<Record<string, unknown> | boolean> {
  const text = `UPDATE "Message" SET ${set}, "leaseOwner" = NULL, "leaseUntil" = NULL WHERE "id" = ? AND "leaseOwner" = ? AND "status" = ${SQL_STATUS.processing}`;
  const values = [...params, message.id, owner];
  if (!hasWebhook(message)) return (await tx.run(text, values)) > 0;
  return (await tx.get<Record<string, unknown>>(`${text} RETURNING *`, values)) ?? false;
}
