// Writes what carriers answered for a batch of dispatched messages, in one commit (group
// commit: the dispatcher hands over every answer that arrived while the previous batch was being
// written). Per message: the status change, its parts, its webhook, and on retry or failure its
// timeline event and refund. A write only lands while this dispatcher still holds the lease; a
// message whose lease ran out belongs to whoever claimed it next. Acceptances, nearly every answer,
// are the delivery store's change; their webhooks, retries and failures (one by one) are written in
// its transaction, after it.
import { SQL_STATUS } from "@/lib/model/message-status";
import { getStores, type CarrierAcceptance } from "@/lib/db/stores";
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { metrics } from "@/lib/metrics";
import type { SubmitOutcome } from "@/lib/smpp/carrier-connection";
import { enqueueWebhook, enqueueWebhooks } from "@/lib/webhooks/enqueue-webhook";
import { hasStatusEndpoints, refreshEndpointCache } from "@/lib/webhooks/account-events";
import { queueStatusChanges } from "@/lib/webhooks/status-events";
import { parseMessageRow, type Message } from "@/lib/db/stores/shared/rows";
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
  const accepted = outcomes.filter(isAccepted);
  const refused = outcomes.filter(isRefused);
  // The usual batch (acceptances of messages without webhooks) is the store's change alone.
  const rest =
    refused.length > 0 || accepted.some(({ message }) => hasWebhook(message))
      ? async (tx: SqlExecutor, landed: string[]): Promise<Recorded[]> => {
          const landedIds = new Set(landed);
          await enqueueWebhooks(
            tx,
            accepted.filter(({ message }) => landedIds.has(message.id) && hasWebhook(message)).map(({ message }) => message.id),
            "message.success",
            now,
          );
          const results: Recorded[] = [];
          for (const outcome of refused) {
            const result = await recordRefusal(tx, outcome, policy, now);
            if (result) results.push(result);
          }
          return results;
        }
      : null;
  const { landed, then } = await getStores().delivery.recordAcceptances(accepted.map(toAcceptance), now, rest);
  const recorded = [...landed.map((id): Recorded => ({ id, counter: "messagesDispatched" })), ...(then ?? [])];
  const operatorOf = new Map(outcomes.map(({ message }) => [message.id, message.operator]));
  for (const { id, counter } of recorded) {
    if (counter) metrics()[counter].inc({ operator: operatorOf.get(id)! });
  }
  return { recorded: recorded.length, leaseLost: outcomes.length - recorded.length };
}

/** Whether a status change of this message is a webhook event (its own webhook_url, or its account's endpoints). */
function hasWebhook(message: ClaimedMessage): boolean {
  return message.webhookUrl !== null || hasStatusEndpoints(message.accountId);
}

function toAcceptance({ message, owner, startedAt, result }: Accepted): CarrierAcceptance {
  return {
    messageId: message.id,
    operator: message.operator,
    owner,
    startedAt,
    response: result.response,
    carrierMessageIds: result.carrierMessageIds,
  };
}

/**
 * Set on a return to the queue after a submit went out without a clear answer (no answer at all,
 * or a part accepted before a refusal): a carrier may have the message, so it is no longer cancellable.
 */
const MAY_BE_AT_CARRIER = `, "mayBeAtCarrier" = TRUE`;

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
      `"status" = ${SQL_STATUS.enqueued}, "attempts" = "attempts" - 1, "nextAttemptAt" = ?, "lastError" = ?, "updatedAt" = ?${result.bindLost ? MAY_BE_AT_CARRIER : ""}`,
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
      `"status" = ${SQL_STATUS.enqueued}, "nextAttemptAt" = ?, "lastError" = ?, "updatedAt" = ?${result.carrierStatus === null || result.partlyAccepted ? MAY_BE_AT_CARRIER : ""}`,
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
  if (row !== true) await enqueueWebhook(tx, row, "message.failed", now);
  return { id: message.id, counter: "messagesFailed" };
}

/** message.status (enqueued) for a retry's return to the queue, when the account has status endpoints. */
async function queueRequeuedStatus(tx: SqlExecutor, message: ClaimedMessage, row: Message | boolean, now: Date): Promise<void> {
  if (typeof row === "boolean" || !hasStatusEndpoints(message.accountId)) return;
  await queueStatusChanges(tx, [{ accountId: message.accountId, message: row }], now);
}

/**
 * Applies a status change (`set`, ending the lease) only while this dispatcher still holds the
 * lease; false when it does not. The changed message is read back only for a webhook's payload.
 */
async function updateLeased(
  tx: SqlExecutor,
  { message, owner }: DispatchOutcome,
  set: string,
  params: unknown[],
): Promise<Message | boolean> {
  const text = `UPDATE "Message" SET ${set}, "leaseOwner" = NULL, "leaseUntil" = NULL WHERE "id" = ? AND "leaseOwner" = ? AND "status" = ${SQL_STATUS.processing}`;
  const values = [...params, message.id, owner];
  if (!hasWebhook(message)) return (await tx.run(text, values)) > 0;
  const row = await tx.get(`${text} RETURNING *`, values);
  return row ? parseMessageRow(row) : false;
}
