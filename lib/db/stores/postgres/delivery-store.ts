// PostgreSQL's delivery and webhook stores. Claims: the due rows chosen once (MATERIALIZED) FOR
// UPDATE SKIP LOCKED, so several dispatcher processes claim disjoint batches of at most their limit,
// and the UPDATE checks the status again (another claimer may have changed a row meanwhile).
// Carrier acceptances and receipts' part changes are each ONE statement, whatever the batch: the
// dispatcher and the receipt handler write one batch at a time, so their round trips bounded them.
// Autocommitted when that is the batch's whole work; otherwise the first statement of the
// transaction in which the domain writes the rest (retries, failures, refunds, webhooks).
import { timeOrderedUuid } from "@/lib/model/ids";
import { SQL_STATUS } from "@/lib/model/message-status";
import { toDbTime, type Sql, type SqlExecutor } from "@/lib/db/sql";
import type { CarrierAcceptance, DeliveredMessage, DeliveryStore, PartChange, ThenInTransaction, WebhookStore } from "../types";
import { claimWebhookDeliveries, type ClaimClauses } from "../shared/claims";
import { deliveryStore } from "../shared/delivery-store";
import { parseDeliveredMessage, parseId } from "../shared/rows";

const POSTGRES_CLAIMS: ClaimClauses = {
  chooseOnce: "MATERIALIZED ",
  lockDue: " FOR UPDATE SKIP LOCKED",
  stillDue: `"status" = ${SQL_STATUS.enqueued} AND `,
};
const POSTGRES_WEBHOOK_CLAIMS: ClaimClauses = { chooseOnce: "MATERIALIZED ", lockDue: " FOR UPDATE SKIP LOCKED", stillDue: "" };

export function postgresDeliveryStore(database: Sql): DeliveryStore {
  return deliveryStore(database, {
    claims: POSTGRES_CLAIMS,
    withThen: (then, change) => withThen(database, then, change),
    recordAcceptances,
    recordPartChanges,
  });
}

export function postgresWebhookStore(database: Sql): WebhookStore {
  return { claim: (claim) => claimWebhookDeliveries(database, POSTGRES_WEBHOOK_CLAIMS, claim) };
}

/** The change autocommitted when `then` is null, else in a transaction with `then` after it. */
async function withThen<C, T>(
  database: Sql,
  then: ThenInTransaction<C, T>,
  change: (executor: SqlExecutor) => Promise<C>,
): Promise<{ changed: C; then: T | null }> {
  if (!then) return { changed: await change(database), then: null };
  return database.transaction(async (tx) => {
    const changed = await change(tx);
    return { changed, then: await then(tx, changed) };
  });
}

/** Row-wise values travel as one array per column, so the text is the same for any batch. */
const RECORD_ACCEPTANCES = `
WITH answers AS (
  SELECT * FROM unnest(CAST(:ids AS TEXT[]), CAST(:owners AS TEXT[]), CAST(:responses AS TEXT[]), CAST(:carrierMessageIds AS TEXT[]),
    CAST(:startedAts AS TIMESTAMP(3)[])) AS a(id, owner, response, carrier_message_id, started_at)
), updated AS (
  UPDATE "Message" SET "status" = ${SQL_STATUS.success}, "operatorResponse" = a.response, "carrierMessageId" = a.carrier_message_id,
    "dispatchedAt" = a.started_at, "finishedAt" = CAST(:at AS TIMESTAMP(3)), "lastError" = NULL, "updatedAt" = CAST(:at AS TIMESTAMP(3)),
    "leaseOwner" = NULL, "leaseUntil" = NULL
  FROM answers a
  WHERE "Message"."id" = a.id AND "Message"."leaseOwner" = a.owner AND "Message"."status" = ${SQL_STATUS.processing}
  RETURNING "Message"."id"
), parts AS (
  INSERT INTO "MessagePart" ("id", "messageId", "partNumber", "operator", "carrierMessageId", "status", "createdAt")
  SELECT p.id, p.message_id, p.part_number, p.operator, p.carrier_message_id, 'submitted', CAST(:at AS TIMESTAMP(3))
  FROM unnest(CAST(:partIds AS TEXT[]), CAST(:partMessageIds AS TEXT[]), CAST(:partNumbers AS INTEGER[]), CAST(:partOperators AS TEXT[]),
    CAST(:partCarrierIds AS TEXT[])) AS p(id, message_id, part_number, operator, carrier_message_id)
  WHERE p.message_id IN (SELECT "id" FROM updated)
)
SELECT "id" FROM updated`;

async function recordAcceptances(executor: SqlExecutor, acceptances: CarrierAcceptance[], now: Date): Promise<string[]> {
  if (acceptances.length === 0) return [];
  // The parts' createdAt is the carrier's acceptance in the message's timeline.
  const parts = acceptances.flatMap((answer) =>
    answer.carrierMessageIds.map((carrierMessageId, index) => ({
      messageId: answer.messageId,
      partNumber: index + 1,
      operator: answer.operator,
      carrierMessageId,
    })),
  );
  const rows = await executor.all(
    RECORD_ACCEPTANCES,
    {
      ids: acceptances.map((answer) => answer.messageId),
      owners: acceptances.map((answer) => answer.owner),
      responses: acceptances.map((answer) => answer.response),
      carrierMessageIds: acceptances.map((answer) => answer.carrierMessageIds[0]),
      startedAts: acceptances.map((answer) => toDbTime(answer.startedAt)),
      at: toDbTime(now),
      partIds: parts.map(() => timeOrderedUuid()),
      partMessageIds: parts.map((part) => part.messageId),
      partNumbers: parts.map((part) => part.partNumber),
      partOperators: parts.map((part) => part.operator),
      partCarrierIds: parts.map((part) => part.carrierMessageId),
    },
    { prepared: true },
  );
  return rows.map(parseId);
}

/**
 * A part changes only while it is still "submitted" (its UPDATE re-checks the row as it is now). A
 * message of several parts is locked, then all its parts, in id order, before any part changes, and
 * its parts are read as they are at the lock, not as they were when the statement began: when two
 * processes record receipts of two parts of one message at once, the second waits for the first and
 * sees its part delivered. A one-part message needs no lock of its own: its only part's row orders
 * its receipts. A message is delivered when this statement delivered one of its parts and every
 * other part is delivered. A part is "submitted" only while its message is in success (parts are
 * written with the acceptance, and only a receipt fails a message that has them), so the last
 * UPDATE finds its rows by id alone, never through the status index.
 */
const RECORD_PART_CHANGES = `
WITH changes AS (
  SELECT * FROM unnest(CAST(:partIds AS TEXT[]), CAST(:statuses AS TEXT[]), CAST(:stats AS TEXT[]), CAST(:errs AS TEXT[]))
    AS c(part_id, status, stat, err)
), held AS MATERIALIZED (
  SELECT m."id" FROM "Message" m
  WHERE m."id" IN (SELECT p."messageId" FROM "MessagePart" p WHERE p."id" IN (SELECT part_id FROM changes))
    AND EXISTS (SELECT 1 FROM "MessagePart" o WHERE o."messageId" = m."id" AND o."partNumber" = 2)
  ORDER BY m."id" FOR UPDATE
), other_parts AS MATERIALIZED (
  SELECT "id", "messageId", "status" FROM "MessagePart" WHERE "messageId" IN (SELECT "id" FROM held) ORDER BY "id" FOR UPDATE
), changed AS (
  UPDATE "MessagePart" SET "status" = c.status, "receiptStat" = c.stat, "receiptError" = c.err, "receiptAt" = CAST(:at AS TIMESTAMP(3))
  FROM changes c
  WHERE "MessagePart"."id" = c.part_id AND "MessagePart"."status" = 'submitted' AND (SELECT COUNT(*) FROM other_parts) >= 0
  RETURNING "MessagePart"."id", "MessagePart"."messageId", "MessagePart"."status"
), complete AS (
  SELECT DISTINCT c."messageId" FROM changed c
  WHERE c."status" = 'delivered'
    AND NOT EXISTS (
      SELECT 1 FROM other_parts n
      WHERE n."messageId" = c."messageId" AND n."status" <> 'delivered'
        AND NOT EXISTS (SELECT 1 FROM changed d WHERE d."id" = n."id" AND d."status" = 'delivered'))
)
UPDATE "Message" SET "deliveredAt" = CAST(:at AS TIMESTAMP(3)), "operatorResponse" = 'DELIVRD', "updatedAt" = CAST(:at AS TIMESTAMP(3))
FROM complete
WHERE "Message"."id" = complete."messageId" AND "Message"."deliveredAt" IS NULL
RETURNING "Message"."id", "Message"."accountId", "Message"."operator", "Message"."webhookUrl", "Message"."test", "Message"."dispatchedAt"`;

async function recordPartChanges(executor: SqlExecutor, changes: PartChange[], now: Date): Promise<DeliveredMessage[]> {
  if (changes.length === 0) return [];
  const rows = await executor.all(
    RECORD_PART_CHANGES,
    {
      partIds: changes.map((change) => change.partId),
      statuses: changes.map((change) => change.status),
      stats: changes.map((change) => change.stat),
      errs: changes.map((change) => change.err),
      at: toDbTime(now),
    },
    { prepared: true },
  );
  return rows.map(parseDeliveredMessage);
}
