// Writes what carriers answered for a batch of dispatched messages, in one transaction (group
// commit: the dispatcher hands over every answer that arrived while the previous batch was being
// written). Per message: the status change, its parts, its webhook, and on retry or failure its
// timeline event and refund. A write only lands while this dispatcher still holds the lease; a
// message whose lease ran out belongs to whoever claimed it next. Acceptances, nearly every answer,
// are written with one statement per batch and table; retries and failures one by one. On
// PostgreSQL a batch of acceptances without webhooks is one statement, with no transaction around it.
import { SQL_STATUS } from "@/lib/model/message-status";
import { timeOrderedUuid } from "@/lib/messages/time-ordered-uuid";
import { sql } from "@/lib/db/client";
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { valuesTable } from "@/lib/db/batch-lists";
import { insertRows } from "@/lib/db/insert-rows";
import { metrics } from "@/lib/metrics";
import type { SubmitOutcome } from "@/lib/smpp/carrier-connection";
import { enqueueWebhook, enqueueWebhooks } from "@/lib/webhooks/enqueue-webhook";
import { parseMessageRow } from "@/lib/messages/message-row";
import type { ClaimedMessage } from "./claim-messages";
import { describeAttempt } from "@/lib/messages/message-timeline";
import { recordMessageEvent } from "./record-message-event";
import { recordAcceptancesInOneStatement } from "./record-acceptances-in-one-statement";
import { refundMessage } from "./refund-message";
import { retryDelayMs, type RetryPolicy } from "./retry-policy";

export type DispatchOutcome = { message: ClaimedMessage; owner: string; startedAt: Date; result: SubmitOutcome };
export type Accepted = DispatchOutcome & { result: Extract<SubmitOutcome, { kind: "accepted" }> };
type Refused = DispatchOutcome & { result: Extract<SubmitOutcome, { kind: "rejected" }> };

type Recorded = { operator: string; counter: "messagesDispatched" | "messagesFailed" | null };

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
  const recorded =
    (await recordInOneStatement(outcomes, now)) ??
    (await sql().transaction(async (tx) => {
      const results = await recordAcceptances(tx, outcomes.filter(isAccepted), now);
      for (const outcome of outcomes.filter(isRefused)) {
        const result = await recordRefusal(tx, outcome, policy, now);
        if (result) results.push(result);
      }
      return results;
    }));
  for (const { operator, counter } of recorded) if (counter) metrics()[counter].inc({ operator });
  return { recorded: recorded.length, leaseLost: outcomes.length - recorded.length };
}

/**
 * PostgreSQL, every message accepted and none with a webhook (the usual batch): one statement
 * (./record-acceptances-in-one-statement.ts). Null for any other batch, which takes the transaction.
 */
async function recordInOneStatement(outcomes: DispatchOutcome[], now: Date): Promise<Recorded[] | null> {
  const database = sql();
  if (
    database.dialect !== "postgres" ||
    !outcomes.every((outcome): outcome is Accepted => isAccepted(outcome) && !outcome.message.webhookUrl)
  )
    return null;
  const landed = await recordAcceptancesInOneStatement(database, outcomes, now);
  return outcomes
    .filter(({ message }) => landed.has(message.id))
    .map(({ message }) => ({ operator: message.operator, counter: "messagesDispatched" }));
}

/** Parts are written only here, once per message (success is final), so they never collide. */
async function recordAcceptances(tx: SqlExecutor, outcomes: Accepted[], now: Date): Promise<Recorded[]> {
  if (outcomes.length === 0) return [];
  const at = toDbTime(now);
  const answers = valuesTable(
    tx.dialect,
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
    landed.filter(({ message }) => message.webhookUrl).map(({ message }) => message.id),
    "message.success",
    now,
  );
  return landed.map(({ message }) => ({ operator: message.operator, counter: "messagesDispatched" }));
}

async function recordRefusal(tx: SqlExecutor, outcome: Refused, policy: RetryPolicy, now: Date): Promise<Recorded | null> {
  const { message, result, startedAt } = outcome;
  const at = toDbTime(now);
  const attempt = describeAttempt(message);

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
    return { operator: message.operator, counter: null };
  }

  // Failures are rare: written one by one, so the refund's event follows the failure's in the timeline.
  const reason = result.temporary ? `${result.response} (gave up after ${message.attempts} attempts)` : result.response;
  const row = await updateLeased(
    tx,
    outcome,
    `"status" = ${SQL_STATUS.failed}, "operatorResponse" = ?, "lastError" = ?, "dispatchedAt" = COALESCE("dispatchedAt", ?), "finishedAt" = ?, "updatedAt" = ?`,
    [result.carrierStatus === null ? message.operatorResponse : result.response, reason, toDbTime(startedAt), at, at],
  );
  if (!row) return null;
  await recordMessageEvent(tx, message.id, "failed", reason, now);
  await refundMessage(tx, message, "message failed at the carrier", now);
  if (row !== true) await enqueueWebhook(tx, parseMessageRow(row), "message.failed", now);
  return { operator: message.operator, counter: "messagesFailed" };
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
  if (!message.webhookUrl) return (await tx.run(text, values)) > 0;
  return (await tx.get<Record<string, unknown>>(`${text} RETURNING *`, values)) ?? false;
}
