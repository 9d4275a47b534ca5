// PostgreSQL's fast path for a batch of single sends of one account (the usual group commit): one
// read of what pricing needs (readSendingAccount), then the key check, the hold and every message
// and ledger row in ONE autocommitted statement, instead of BEGIN, five statements and COMMIT. On
// our machines every round trip to PostgreSQL costs the Node process 260-330 µs of CPU (mostly the
// kernel waking the backend) and about 0.6 ms of wall time, so a batch's round trips, not its SQL,
// bounded PostgreSQL's send rate.
// Nothing is written unless the hold lands: the messages and the ledger rows are produced only from
// the hold's returned row, and the hold's UPDATE lands only while every key is still usable (read
// FOR SHARE, so a revoke waits for this statement) and the balance, as it is at the row lock, covers
// the batch. When it does not land, the caller runs the batch again the careful way.
import type { SqlExecutor } from "@/lib/db/sql";
import { DEFAULT_SCOPE, resolveRates, type RateRow } from "@/lib/rates/rates";
import type { Operator } from "@/lib/carriers/operators";
import type { AcceptedMessage } from "./commit-sends";

/** What the statement stores of a message: its own values and those of its send. */
export type OneStatementMessage = Pick<
  AcceptedMessage,
  "id" | "to" | "operator" | "charge" | "body" | "senderId" | "segments" | "encoding" | "webhookUrl"
>;
export type OneStatementSend = { apiKeyId: string | null; userId: string | null; actor: string; messages: OneStatementMessage[] };

/** What pricing a batch needs of its account, as it is now (unlocked): the balance is checked again by the hold. */
export type SendingAccount = {
  balance: bigint;
  currency: string;
  rates: Record<Operator, bigint>;
  approvedSenders: Set<string>;
  /** The batch's recipients on the account's opt-out list (one indexed lookup in the same statement). */
  optedOut: Set<string>;
};

const READ_SENDING_ACCOUNT = `
SELECT a."balance", a."currency",
  ARRAY(SELECT s."name" FROM "SenderId" s WHERE s."accountId" = a."id" AND s."status" = 'approved') AS "approvedSenders",
  ARRAY(SELECT o."number" FROM "OptOut" o WHERE o."accountId" = a."id" AND o."number" = ANY(CAST(? AS TEXT[]))) AS "optedOut",
  (SELECT json_agg(json_build_object('scope', r."scope", 'operator', r."operator", 'pricePerSegment', r."pricePerSegment"))
   FROM "Rate" r WHERE r."scope" IN (CAST(? AS TEXT), a."id")) AS "rates"
FROM "Account" a WHERE a."id" = ?`;

/**
 * The account's balance, currency, approved sender ids, rates and which of `recipients` opted out, in
 * one round trip; undefined if there is no such account.
 */
export async function readSendingAccount(
  executor: SqlExecutor,
  accountId: string,
  recipients: readonly string[],
): Promise<SendingAccount | undefined> {
  const row = await executor.get<{
    balance: number | string;
    currency: string;
    approvedSenders: string[];
    optedOut: string[];
    rates: RateRow[] | null;
  }>(READ_SENDING_ACCOUNT, [recipients, DEFAULT_SCOPE, accountId], { prepared: true });
  if (!row) return undefined;
  return {
    balance: BigInt(row.balance),
    currency: row.currency,
    rates: resolveRates(row.rates ?? [], accountId),
    approvedSenders: new Set(row.approvedSenders),
    optedOut: new Set(row.optedOut),
  };
}

/** Row-wise values travel as one array per column, so the text is the same for any batch size. */
const WRITE_BATCH = `
WITH usable_keys AS (
  SELECT "id" FROM "ApiKey"
  WHERE "id" = ANY(CAST(? AS TEXT[])) AND "active" AND ("expiresAt" IS NULL OR "expiresAt" > CAST(? AS TIMESTAMP(3)))
  ORDER BY "id" FOR SHARE
), hold AS (
  UPDATE "Account" SET "balance" = "balance" + CAST(? AS BIGINT), "updatedAt" = CAST(? AS TIMESTAMP(3))
  WHERE "id" = ? AND "balance" + CAST(? AS BIGINT) >= 0
    AND (SELECT COUNT(*) FROM usable_keys) = CAST(? AS INTEGER)
  RETURNING "balance"
), messages AS (
  INSERT INTO "Message" ("accountId", "currency", "status", "operatorResponse", "test", "nextAttemptAt", "receivedAt", "createdAt", "updatedAt",
    "id", "to", "operator", "charge", "apiKeyId", "userId", "body", "senderId", "segments", "encoding", "webhookUrl")
  SELECT CAST(? AS TEXT), CAST(? AS TEXT), 'enqueued', '', false, t.at, t.at, t.at, t.at, m.*
  FROM (SELECT CAST(? AS TIMESTAMP(3)) AS at) t,
    unnest(CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS BIGINT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]),
      CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS INTEGER[]), CAST(? AS TEXT[]), CAST(? AS TEXT[])) AS m
  WHERE EXISTS (SELECT 1 FROM hold)
), ledger AS (
  INSERT INTO "LedgerEntry" ("accountId", "kind", "amount", "balanceAfter", "messageId", "actor", "createdAt")
  SELECT CAST(? AS TEXT), 'hold', l.amount, hold."balance" + l.after_final, l.message_id, l.actor, CAST(? AS TIMESTAMP(3))
  FROM hold, unnest(CAST(? AS BIGINT[]), CAST(? AS BIGINT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[])) WITH ORDINALITY AS l(amount, after_final, message_id, actor, n)
  ORDER BY l.n
)
SELECT COUNT(*) AS "held" FROM hold`;

/**
 * Holds the batch's charge and stores its messages and ledger rows, all or nothing. Returns false,
 * having written nothing, when a key is no longer usable or the balance no longer covers the batch.
 */
export async function writeSendsInOneStatement(
  executor: SqlExecutor,
  batch: { accountId: string; currency: string; at: string; sends: OneStatementSend[] },
): Promise<boolean> {
  const keyIds = [...new Set(batch.sends.flatMap((send) => send.apiKeyId ?? []))];
  const rows = batch.sends.flatMap((send) => send.messages.map((message) => ({ send, message })));
  const total = rows.reduce((sum, { message }) => sum - message.charge, 0n);
  // Each ledger row's balance after it, as an offset from the balance after the whole batch.
  let afterFinal = 0n;
  const afterFinalOf = rows.map(() => 0n);
  for (let index = rows.length - 1; index >= 0; index--) {
    afterFinalOf[index] = afterFinal;
    afterFinal += rows[index].message.charge;
  }
  const column = <T>(value: (row: (typeof rows)[number]) => T) => rows.map(value);
  const result = await executor.get<{ held: number | string }>(
    WRITE_BATCH,
    [
      keyIds,
      batch.at,
      total,
      batch.at,
      batch.accountId,
      total,
      keyIds.length,
      batch.accountId,
      batch.currency,
      batch.at,
      column(({ message }) => message.id),
      column(({ message }) => message.to),
      column(({ message }) => message.operator),
      column(({ message }) => message.charge.toString()),
      column(({ send }) => send.apiKeyId),
      column(({ send }) => send.userId),
      column(({ message }) => message.body),
      column(({ message }) => message.senderId),
      column(({ message }) => message.segments),
      column(({ message }) => message.encoding),
      column(({ message }) => message.webhookUrl),
      batch.accountId,
      batch.at,
      column(({ message }) => (-message.charge).toString()),
      afterFinalOf.map(String),
      column(({ message }) => message.id),
      column(({ send }) => send.actor),
    ],
    { prepared: true },
  );
  return Number(result?.held ?? 0) === 1;
}
