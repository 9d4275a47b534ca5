// PostgreSQL's delivery and webhook stores. Claims: the due rows chosen once (MATERIALIZED) FOR
// UPDATE SKIP LOCKED, so several dispatcher processes claim disjoint batches of at most their limit,
// and the UPDATE checks the status again (another claimer may have changed a row meanwhile).
// The usual batch of carrier answers (every message accepted, none with a webhook) and of receipts
// (deliveries or intermediate states of one-part messages without a webhook) is ONE autocommitted
// statement instead of BEGIN, a few statements and COMMIT: the dispatcher and the receipt handler
// write one batch at a time, so their round trips bounded them. Any other batch is the domain's
// transaction.
import { timeOrderedUuid } from "@/lib/model/ids";
import { SQL_STATUS } from "@/lib/model/message-status";
import { toDbTime, type Sql } from "@/lib/db/sql";
import { inList } from "@/lib/db/batch-lists";
import type { CarrierAcceptance, DeliveredMessage, DeliveryStore, PlainPartChange, WebhookStore } from "../types";
import { claimMessages, claimWebhookDeliveries, readQueueState, type ClaimClauses } from "../shared/claims";

const POSTGRES_CLAIMS: ClaimClauses = {
  chooseOnce: "MATERIALIZED ",
  lockDue: " FOR UPDATE SKIP LOCKED",
  stillDue: `"status" = ${SQL_STATUS.enqueued} AND `,
};
const POSTGRES_WEBHOOK_CLAIMS: ClaimClauses = { chooseOnce: "MATERIALIZED ", lockDue: " FOR UPDATE SKIP LOCKED", stillDue: "" };

export function postgresDeliveryStore(database: Sql): DeliveryStore {
  return {
    claim: (claim) => claimMessages(database, POSTGRES_CLAIMS, claim),
    readQueueState: (queue) => readQueueState(database, queue),
    async holdMessages(tx, messageIds) {
      const ids = inList([...new Set(messageIds)].sort());
      await tx.run(`SELECT "id" FROM "Message" WHERE "id" IN ${ids.text} ORDER BY "id" FOR UPDATE`, ids.params);
    },
    async recordOutcomes(acceptances, now, inTransaction) {
      if (!acceptances) return database.transaction(inTransaction);
      return recordAcceptances(database, acceptances, now);
    },
    async recordReceipts(plainChanges, now, inTransaction) {
      const plain = await plainChanges(database);
      if (!plain) return database.transaction(inTransaction);
      return plain.done(plain.changes.length > 0 ? await recordDeliveries(database, plain.changes, now) : []);
    },
  };
}

export function postgresWebhookStore(database: Sql): WebhookStore {
  return { claim: (claim) => claimWebhookDeliveries(database, POSTGRES_WEBHOOK_CLAIMS, claim) };
}

/**
 * As in the transaction: an answer lands only while its dispatcher holds the message's lease, and
 * only the messages that landed get parts. Row-wise values travel as one array per column.
 */
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

async function recordAcceptances(database: Sql, acceptances: CarrierAcceptance[], now: Date): Promise<string[]> {
  const parts = acceptances.flatMap((answer) =>
    answer.carrierMessageIds.map((carrierMessageId, index) => ({
      messageId: answer.messageId,
      partNumber: index + 1,
      operator: answer.operator,
      carrierMessageId,
    })),
  );
  const rows = await database.all<{ id: string }>(
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
  return rows.map((row) => row.id);
}

/**
 * A part changes only while it is still "submitted": a receipt recorded meanwhile elsewhere wins.
 * One-part messages only: one statement sees the parts as they were when it began, so it could not
 * tell that another process's receipt has just delivered a message's other part.
 */
const RECORD_DELIVERIES = `
WITH changes AS (
  SELECT * FROM unnest(CAST(:partIds AS TEXT[]), CAST(:statuses AS TEXT[]), CAST(:stats AS TEXT[]), CAST(:errs AS TEXT[]))
    AS c(part_id, status, stat, err)
), parts AS (
  UPDATE "MessagePart" SET "status" = c.status, "receiptStat" = c.stat, "receiptError" = c.err, "receiptAt" = CAST(:at AS TIMESTAMP(3))
  FROM changes c
  WHERE "MessagePart"."id" = c.part_id AND "MessagePart"."status" = 'submitted'
  RETURNING "MessagePart"."messageId", "MessagePart"."status"
)
UPDATE "Message" SET "deliveredAt" = CAST(:at AS TIMESTAMP(3)), "operatorResponse" = 'DELIVRD', "updatedAt" = CAST(:at AS TIMESTAMP(3))
FROM parts
WHERE "Message"."id" = parts."messageId" AND parts."status" = 'delivered' AND "Message"."status" = ${SQL_STATUS.success}
  AND "Message"."deliveredAt" IS NULL
RETURNING "Message"."id", "Message"."operator", "Message"."test", "Message"."dispatchedAt"`;

async function recordDeliveries(database: Sql, changes: PlainPartChange[], now: Date): Promise<DeliveredMessage[]> {
  return database.all<DeliveredMessage>(
    RECORD_DELIVERIES,
    {
      partIds: changes.map((change) => change.partId),
      statuses: changes.map((change) => change.status),
      stats: changes.map((change) => change.stat),
      errs: changes.map((change) => change.err),
      at: toDbTime(now),
    },
    { prepared: true },
  );
}
