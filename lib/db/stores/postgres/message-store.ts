// PostgreSQL's message store. Every round trip to PostgreSQL costs the Node process far more CPU and
// wall time than the SQL it carries, so the usual batch (live single sends of one account, without
// Idempotency-Keys) is one read of what pricing needs and ONE autocommitted statement that checks the
// keys, holds the charge and writes every message and ledger row. Any other batch, or one that
// statement refuses (a key revoked or the balance spent meanwhile), is written in a transaction:
// first without locking its accounts, so concurrent batches overlap their inserts and an account's
// row lock is held only from its hold to COMMIT; should the balance have moved below a hold, again
// under FOR UPDATE.
import { AppError } from "@/lib/errors";
import { SQL_STATUS } from "@/lib/model/message-status";
import { DEFAULT_SCOPE, resolveRates } from "@/lib/model/rates";
import type { AcceptedSend, PreparedSend, PriceSend, SendingAccount } from "@/lib/model/sends";
import { toDbTime, type Sql } from "@/lib/db/sql";
import type { KeyStore, MessageStore, SendOutcome } from "../types";
import { findUnusableKeys } from "../shared/api-keys";
import { readMessages } from "../shared/read-messages";
import { BalanceMovedError, loadPricing, writeSendsInTransaction, type TransactionLocks } from "../shared/write-sends-in-transaction";

/** Keys read FOR SHARE: a revoke waits for the transaction that uses them. */
const HOLD_KEYS = ` ORDER BY "id" FOR SHARE`;
/** First try: nothing locked before the holds; the hold's conditional UPDATE is the guard. */
const UNLOCKED: TransactionLocks = { accounts: "", keys: HOLD_KEYS, accountsHeld: false };
/** Then, if the balance moved: the balance read is the balance held. */
const LOCKED: TransactionLocks = { accounts: " FOR UPDATE", keys: HOLD_KEYS, accountsHeld: true };

export function postgresMessageStore(database: Sql): MessageStore {
  return {
    // One batch's inserts overlap another's round trips (an account's row lock is held only from its hold to COMMIT).
    concurrentSendBatches: 2,
    async commitSends(sends, price) {
      if (fitsOneStatement(sends)) {
        const written = await writeSendsInOneStatement(database, sends, price);
        if (written) return written;
        return writeSendsInTransaction(database, sends, price, await loadPricing(database, sends), LOCKED);
      }
      const pricing = await loadPricing(database, sends);
      return writeSendsInTransaction(database, sends, price, pricing, UNLOCKED).catch((error: unknown) => {
        if (error instanceof BalanceMovedError) return writeSendsInTransaction(database, sends, price, pricing, LOCKED);
        throw error;
      });
    },
    readMessages: (reads) => readMessages(database, reads),
  };
}

function fitsOneStatement(sends: PreparedSend[]): boolean {
  const [{ accountId }] = sends;
  return sends.every((send) => send.accountId === accountId && !send.bulk && !send.test && !send.idempotency);
}

const READ_SENDING_ACCOUNT = `
SELECT a."balance", a."currency",
  ARRAY(SELECT s."name" FROM "SenderId" s WHERE s."accountId" = a."id" AND s."status" = 'approved') AS "approvedSenders",
  ARRAY(SELECT o."number" FROM "OptOut" o WHERE o."accountId" = a."id" AND o."number" = ANY(CAST(:recipients AS TEXT[]))) AS "optedOut",
  (SELECT json_agg(json_build_object('scope', r."scope", 'operator', r."operator", 'pricePerSegment', r."pricePerSegment"))
   FROM "Rate" r WHERE r."scope" IN (CAST(:defaultScope AS TEXT), a."id")) AS "rates"
FROM "Account" a WHERE a."id" = :accountId`;

/**
 * The account's balance, currency, approved sender ids, rates and which of the recipients are on its
 * opt-out list, in one round trip (unlocked).
 */
async function readSendingAccount(database: Sql, accountId: string, recipients: string[]): Promise<SendingAccount | undefined> {
  const row = await database.get<{
    balance: number | string;
    currency: string;
    approvedSenders: string[];
    optedOut: string[];
    rates: Array<{ scope: string; operator: string; pricePerSegment: number | string }> | null;
  }>(READ_SENDING_ACCOUNT, { defaultScope: DEFAULT_SCOPE, accountId, recipients }, { prepared: true });
  if (!row) return undefined;
  const rates = (row.rates ?? []).map((rate) => ({ ...rate, pricePerSegment: BigInt(rate.pricePerSegment) }));
  return {
    balance: BigInt(row.balance),
    currency: row.currency,
    rates: resolveRates(rates, accountId),
    approvedSenders: new Set(row.approvedSenders),
    optedOut: new Set(row.optedOut),
  };
}

/**
 * Nothing is written unless the hold lands: the messages and the ledger rows are produced only from
 * the hold's returned row, and the hold's UPDATE lands only while every key is still usable (read
 * FOR SHARE, so a revoke waits for this statement) and the balance, as it is at the row lock, covers
 * the batch. Row-wise values travel as one array per column, so the text is the same for any batch.
 */
const WRITE_BATCH = `
WITH usable_keys AS (
  SELECT "id" FROM "ApiKey"
  WHERE "id" = ANY(CAST(:keyIds AS TEXT[])) AND "active" AND ("expiresAt" IS NULL OR "expiresAt" > CAST(:at AS TIMESTAMP(3)))
  ORDER BY "id" FOR SHARE
), hold AS (
  UPDATE "Account" SET "balance" = "balance" + CAST(:total AS BIGINT), "updatedAt" = CAST(:at AS TIMESTAMP(3))
  WHERE "id" = :accountId AND "balance" + CAST(:total AS BIGINT) >= 0
    AND (SELECT COUNT(*) FROM usable_keys) = CAST(:keyCount AS INTEGER)
  RETURNING "balance"
), messages AS (
  INSERT INTO "Message" ("accountId", "currency", "operatorResponse", "test", "receivedAt", "createdAt", "updatedAt",
    "id", "to", "operator", "charge", "apiKeyId", "userId", "body", "senderId", "segments", "encoding", "webhookUrl",
    "status", "nextAttemptAt", "priority", "sendAt", "validityPeriod", "expiresAt", "turnAt")
  SELECT CAST(:accountId AS TEXT), CAST(:currency AS TEXT), '', false, t.at, t.at, t.at,
    m.id, m.to, m.operator, m.charge, m.api_key_id, m.user_id, m.body, m.sender_id, m.segments, m.encoding, m.webhook_url,
    CASE WHEN m.send_at IS NULL THEN ${SQL_STATUS.enqueued} ELSE ${SQL_STATUS.created} END, COALESCE(m.send_at, t.at),
    m.priority, m.send_at, m.validity_period, m.expires_at, m.turn_at
  FROM (SELECT CAST(:at AS TIMESTAMP(3)) AS at) t,
    unnest(CAST(:ids AS TEXT[]), CAST(:tos AS TEXT[]), CAST(:operators AS TEXT[]), CAST(:charges AS BIGINT[]),
      CAST(:apiKeyIds AS TEXT[]), CAST(:userIds AS TEXT[]), CAST(:bodies AS TEXT[]), CAST(:senderIds AS TEXT[]),
      CAST(:segments AS INTEGER[]), CAST(:encodings AS TEXT[]), CAST(:webhookUrls AS TEXT[]), CAST(:priorities AS TEXT[]),
      CAST(:sendAts AS TIMESTAMP(3)[]), CAST(:validityPeriods AS INTEGER[]), CAST(:expiresAts AS TIMESTAMP(3)[]),
      CAST(:turnAts AS TIMESTAMP(3)[]))
    AS m(id, "to", operator, charge, api_key_id, user_id, body, sender_id, segments, encoding, webhook_url, priority, send_at,
      validity_period, expires_at, turn_at)
  WHERE EXISTS (SELECT 1 FROM hold)
), ledger AS (
  INSERT INTO "LedgerEntry" ("accountId", "kind", "amount", "balanceAfter", "messageId", "actor", "createdAt")
  SELECT CAST(:accountId AS TEXT), 'hold', l.amount, hold."balance" + l.after_final, l.message_id, l.actor, CAST(:at AS TIMESTAMP(3))
  FROM hold, unnest(CAST(:amounts AS BIGINT[]), CAST(:afterFinal AS BIGINT[]), CAST(:ids AS TEXT[]), CAST(:actors AS TEXT[]))
    WITH ORDINALITY AS l(amount, after_final, message_id, actor, n)
  ORDER BY l.n
)
SELECT COUNT(*) AS "held" FROM hold`;

/**
 * The batch priced against the account as read, then written by one statement. A send to an
 * opted-out recipient is refused on its own. Null when another refusal comes up, or when a key or
 * the balance moved before the statement (it wrote nothing): the caller runs the batch again in a
 * transaction under the account's lock, which reads every key again.
 */
export async function writeSendsInOneStatement(database: Sql, sends: PreparedSend[], price: PriceSend): Promise<SendOutcome[] | null> {
  const [{ accountId }] = sends;
  const account = await readSendingAccount(
    database,
    accountId,
    sends.flatMap((send) => send.recipients.map(({ to }) => to)),
  );
  if (!account) return null;
  const now = new Date();
  const results: SendOutcome[] = [];
  const written: { send: PreparedSend; result: AcceptedSend }[] = [];
  for (const send of sends) {
    const result = price(send, account, now);
    if (result instanceof AppError && result.code !== "RECIPIENT_OPTED_OUT") return null;
    results.push(result);
    if (!(result instanceof AppError)) written.push({ send, result });
  }
  if (written.length === 0) return results;
  const rows = written.flatMap(({ send, result }) => result.messages.map((message) => ({ send, message })));
  const total = rows.reduce((sum, { message }) => sum - message.charge, 0n);
  // Each ledger row's balance after it, as an offset from the balance after the whole batch.
  let afterFinal = 0n;
  const afterFinalOf = rows.map(() => 0n);
  for (let index = rows.length - 1; index >= 0; index--) {
    afterFinalOf[index] = afterFinal;
    afterFinal += rows[index].message.charge;
  }
  const keyIds = [...new Set(sends.flatMap((send) => send.apiKeyId ?? []))];
  const column = <T>(value: (row: (typeof rows)[number]) => T) => rows.map(value);
  const result = await database.get<{ held: number | string }>(
    WRITE_BATCH,
    {
      keyIds,
      keyCount: keyIds.length,
      at: toDbTime(now),
      total,
      accountId,
      currency: account.currency,
      ids: column(({ message }) => message.id),
      tos: column(({ message }) => message.to),
      operators: column(({ message }) => message.operator),
      charges: column(({ message }) => message.charge.toString()),
      apiKeyIds: column(({ send }) => send.apiKeyId),
      userIds: column(({ send }) => send.userId),
      bodies: column(({ message }) => message.body),
      senderIds: column(({ message }) => message.senderId),
      segments: column(({ message }) => message.segments),
      encodings: column(({ message }) => message.encoding),
      webhookUrls: column(({ message }) => message.webhookUrl),
      priorities: column(({ message }) => message.priority),
      sendAts: column(({ message }) => (message.sendAt ? toDbTime(message.sendAt) : null)),
      validityPeriods: column(({ message }) => message.validityPeriod),
      expiresAts: column(({ message }) => (message.expiresAt ? toDbTime(message.expiresAt) : null)),
      turnAts: column(({ message }) => toDbTime(new Date(message.turnAt))),
      amounts: column(({ message }) => (-message.charge).toString()),
      afterFinal: afterFinalOf.map(String),
      actors: column(({ send }) => send.actor),
    },
    { prepared: true },
  );
  return Number(result?.held ?? 0) === 1 ? results : null;
}

export function postgresKeyStore(): KeyStore {
  return {
    findUnusable: (executor, keyIds, now, options = {}) =>
      findUnusableKeys(executor, keyIds, now, options.holdUntilCommit ? HOLD_KEYS : ""),
  };
}
