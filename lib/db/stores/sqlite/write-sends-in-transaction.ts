// SQLite writes a batch of sends in one transaction: one bulk send, or a batch of concurrent single
// sends (group commit). The one writer holds everything the transaction reads: the balance read is
// the balance held, and no row locks are taken.
import { AppError } from "@/lib/errors";
import { MessageStatus } from "@/lib/model/message-status";
import { unknownApiKeyError } from "@/lib/model/api-keys";
import { DEFAULT_SCOPE, resolveRates } from "@/lib/model/rates";
import type { AccountLedgerEntry } from "@/lib/model/ledger";
import {
  IdempotencyKeyTakenError,
  type AcceptedMessage,
  type AcceptedSend,
  type PreparedSend,
  type PriceSend,
  type SendingAccount,
} from "@/lib/model/sends";
import { toDbTime, type Sql, type SqlExecutor } from "@/lib/db/sql";
import { insertRows } from "@/lib/db/insert-rows";
import { HAS_OPT_OUTS_COLUMN, readOptedOut } from "../shared/opt-outs";
import { inList } from "@/lib/db/batch-lists";
import type { SendOutcome } from "../types";
import { applyLedgerEntries } from "../shared/ledger-rows";
import { findUnusableKeys } from "../shared/api-keys";

type AcceptedEntry = { send: PreparedSend; result: AcceptedSend };
type Pricing = { rates: SendingAccount["rates"]; approvedSenders: Set<string> };

/** Message columns whose value is its send's, and those of the message's own. */
const MESSAGE_SEND_COLUMNS = [
  "accountId",
  "apiKeyId",
  "userId",
  "bulkSendId",
  "body",
  "senderId",
  "currency",
  "segments",
  "encoding",
  "status",
  "operatorResponse",
  "webhookUrl",
  "test",
  "nextAttemptAt",
  "receivedAt",
  "createdAt",
  "updatedAt",
  "priority",
  "sendAt",
  "validityPeriod",
  "expiresAt",
] as const;
const MESSAGE_OWN_COLUMNS = ["id", "to", "operator", "charge", "turn"] as const;
const MESSAGE_COLUMNS = [...MESSAGE_SEND_COLUMNS, ...MESSAGE_OWN_COLUMNS];
/** Rows are built and inserted this many messages at a time, never a whole bulk send's at once. */
const MESSAGES_PER_CHUNK = 1024;
const BULK_COLUMNS = [
  "id",
  "accountId",
  "apiKeyId",
  "body",
  "senderId",
  "webhookUrl",
  "total",
  "charge",
  "currency",
  "test",
  "createdAt",
] as const;
/** An Idempotency-Key's record while its transaction runs; the send's answer replaces it before COMMIT. */
const RESPONSE_PENDING = 0;

/** Rates and the approved sender ids named, once per account of the batch, read before the transaction. */
export async function loadPricing(database: Sql, sends: PreparedSend[]): Promise<Map<string, Pricing>> {
  const names = new Map<string, Set<string>>();
  for (const send of sends) {
    const set = names.get(send.accountId) ?? new Set<string>();
    set.add(send.senderName);
    names.set(send.accountId, set);
  }
  const entries = await Promise.all(
    [...names].map(async ([accountId, senderNames]): Promise<[string, Pricing]> => {
      const [rates, senders] = await Promise.all([
        database.all<{ scope: string; operator: string; pricePerSegment: number | string }>(
          `SELECT "scope", "operator", "pricePerSegment" FROM "Rate" WHERE "scope" IN (?, ?)`,
          [DEFAULT_SCOPE, accountId],
          { prepared: true },
        ),
        database.all<{ name: string }>(`SELECT "name" FROM "SenderId" WHERE "accountId" = ? AND "status" = 'approved'`, [accountId], {
          prepared: true,
        }),
      ]);
      const approved = senders.map((sender) => sender.name).filter((name) => senderNames.has(name));
      const rateRows = rates.map((row) => ({ ...row, pricePerSegment: BigInt(row.pricePerSegment) }));
      return [accountId, { rates: resolveRates(rateRows, accountId), approvedSenders: new Set(approved) }];
    }),
  );
  return new Map(entries);
}

export function writeSendsInTransaction(
  database: Sql,
  sends: PreparedSend[],
  price: PriceSend,
  pricing: Map<string, Pricing>,
): Promise<SendOutcome[]> {
  return database.transaction(async (tx) => {
    const now = new Date();
    // Idempotency-Keys first, in key order: a concurrent request with the same key waits here for
    // this transaction, before either holds an account.
    const taken = await claimIdempotencyKeys(tx, sends, now);
    const accounts = await readAccounts(tx, sends, pricing);
    // The API may have taken a send's key from its cache: a key revoked or expired since then sends
    // nothing. Read in this transaction, so no send commits after a revoke.
    const unusableKeys = await findUnusableKeys(tx, [...new Set(sends.flatMap((send) => send.apiKeyId ?? []))], now, "");
    const results = sends.map((send): SendOutcome => {
      if (taken.has(send)) return new IdempotencyKeyTakenError(send.idempotency!.key);
      if (send.apiKeyId && unusableKeys.has(send.apiKeyId)) return unknownApiKeyError();
      const account = accounts.get(send.accountId);
      return account ? price(send, account, now) : AppError.notFound("Account");
    });
    await writeAccepted(tx, sends, results, now);
    await settleIdempotencyKeys(tx, sends, results, taken);
    return results;
  });
}

/**
 * Writes the record of each send's Idempotency-Key (an expired one is taken over); returns the sends
 * whose key another request already holds.
 */
async function claimIdempotencyKeys(tx: SqlExecutor, sends: PreparedSend[], now: Date): Promise<Set<PreparedSend>> {
  const keyed = sends.filter((send) => send.idempotency).sort((a, b) => (a.idempotency!.key < b.idempotency!.key ? -1 : 1));
  const taken = new Set<PreparedSend>();
  const at = toDbTime(now);
  for (const send of keyed) {
    const record = send.idempotency!;
    const claimed = await tx.run(
      `INSERT INTO "IdempotencyKey" ("accountId", "key", "requestHash", "responseStatus", "responseBody", "createdAt", "expiresAt")
       VALUES (:accountId, :key, :requestHash, :pending, '', :at, :expiresAt)
       ON CONFLICT ("accountId", "key") DO UPDATE SET "requestHash" = excluded."requestHash", "responseStatus" = excluded."responseStatus",
         "responseBody" = excluded."responseBody", "createdAt" = excluded."createdAt", "expiresAt" = excluded."expiresAt"
       WHERE "IdempotencyKey"."expiresAt" <= :at`,
      {
        accountId: send.accountId,
        key: record.key,
        requestHash: record.requestHash,
        pending: RESPONSE_PENDING,
        at,
        expiresAt: toDbTime(new Date(now.getTime() + record.keptForMs)),
      },
    );
    if (claimed === 0) taken.add(send);
  }
  return taken;
}

/** An accepted send's key keeps its answer; a refused one's key is freed, as if never used. */
async function settleIdempotencyKeys(tx: SqlExecutor, sends: PreparedSend[], results: SendOutcome[], taken: Set<PreparedSend>) {
  for (const [index, send] of sends.entries()) {
    if (!send.idempotency || taken.has(send)) continue;
    const result = results[index];
    const where = { accountId: send.accountId, key: send.idempotency.key };
    if (result instanceof Error) {
      await tx.run(`DELETE FROM "IdempotencyKey" WHERE "accountId" = :accountId AND "key" = :key`, where);
      continue;
    }
    const response = send.idempotency.response(result);
    await tx.run(
      `UPDATE "IdempotencyKey" SET "responseStatus" = :status, "responseBody" = :body WHERE "accountId" = :accountId AND "key" = :key`,
      { ...where, status: response.status, body: response.body },
    );
  }
}

/** The accounts as read in this transaction, with the batch's recipients on each one's opt-out list. */
async function readAccounts(tx: SqlExecutor, sends: PreparedSend[], pricing: Map<string, Pricing>): Promise<Map<string, SendingAccount>> {
  const ids = inList([...pricing.keys()]);
  const rows = await tx.all<{ id: string; balance: number | string | bigint; currency: string; hasOptOuts: boolean | number }>(
    `SELECT "id", "balance", "currency", ${HAS_OPT_OUTS_COLUMN} FROM "Account" WHERE "id" IN ${ids.text}`,
    ids.params,
    { prepared: true },
  );
  const accounts = new Map<string, SendingAccount>();
  for (const row of rows) {
    const hasOptOuts = row.hasOptOuts === true || row.hasOptOuts === 1;
    const optedOut = hasOptOuts ? await readOptedOut(tx, row.id, recipientsOf(sends, row.id)) : new Set<string>();
    accounts.set(row.id, { balance: BigInt(row.balance), currency: row.currency, ...pricing.get(row.id)!, optedOut });
  }
  return accounts;
}

function recipientsOf(sends: PreparedSend[], accountId: string): string[] {
  return sends.filter((send) => send.accountId === accountId).flatMap((send) => send.recipients.map(({ to }) => to));
}

async function writeAccepted(tx: SqlExecutor, sends: PreparedSend[], results: SendOutcome[], now: Date): Promise<void> {
  const at = toDbTime(now);
  const accepted: AcceptedEntry[] = [];
  sends.forEach((send, index) => {
    const result = results[index];
    if (!(result instanceof Error)) accepted.push({ send, result });
  });
  const bulkRows = accepted
    .filter(({ result }) => result.bulkSendId)
    .map(({ send, result }) => [
      result.bulkSendId,
      send.accountId,
      send.apiKeyId,
      send.body,
      send.senderName,
      send.webhookUrl,
      result.messages.length,
      result.charge,
      result.currency,
      send.test,
      at,
    ]);
  await insertRows(tx, "BulkSend", BULK_COLUMNS, bulkRows);
  await insertMessages(tx, accepted, at);
  await holdCharges(
    tx,
    accepted.filter(({ send }) => !send.test),
    now,
  );
}

function sendValues({ send, result }: AcceptedEntry, at: string): unknown[] {
  const [first] = result.messages;
  const { sendAt, priority, validityPeriod } = send.control;
  const expiresAt = first?.expiresAt ?? null;
  return [
    send.accountId,
    send.apiKeyId,
    send.userId,
    result.bulkSendId,
    send.body,
    send.senderName,
    result.currency,
    send.segments,
    send.encoding,
    sendAt ? MessageStatus.created : MessageStatus.enqueued,
    "",
    send.webhookUrl,
    send.test,
    sendAt ? toDbTime(sendAt) : at,
    at,
    at,
    at,
    priority,
    sendAt ? toDbTime(sendAt) : null,
    validityPeriod,
    expiresAt ? toDbTime(expiresAt) : null,
  ];
}

function ownValues(message: AcceptedMessage): unknown[] {
  return [message.id, message.to, message.operator, message.charge, message.turn];
}

/**
 * The Message rows, a chunk at a time (their timeline's "accepted" is their receivedAt). A batch of
 * one send (every bulk send) binds the send's values once per statement; a batch of single sends
 * binds them per row.
 */
async function insertMessages(tx: SqlExecutor, accepted: AcceptedEntry[], at: string): Promise<void> {
  const [only] = accepted;
  const shared = accepted.length === 1 ? { columns: MESSAGE_SEND_COLUMNS, values: sendValues(only, at) } : undefined;
  for (const chunk of messageChunks(accepted)) {
    const rows = shared
      ? chunk.map(({ message }) => ownValues(message))
      : chunk.map(({ entry, message }) => [...sendValues(entry, at), ...ownValues(message)]);
    await insertRows(tx, "Message", shared ? MESSAGE_OWN_COLUMNS : MESSAGE_COLUMNS, rows, shared);
  }
}

/** Each message of the entries with its entry, MESSAGES_PER_CHUNK at a time. */
function* messageChunks(entries: AcceptedEntry[]): Generator<Array<{ entry: AcceptedEntry; message: AcceptedMessage }>> {
  let chunk: Array<{ entry: AcceptedEntry; message: AcceptedMessage }> = [];
  for (const entry of entries) {
    for (const message of entry.result.messages) {
      chunk.push({ entry, message });
      if (chunk.length < MESSAGES_PER_CHUNK) continue;
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** The ledger holds, after every message row, an account and a chunk of holds at a time. */
async function holdCharges(tx: SqlExecutor, charged: AcceptedEntry[], now: Date): Promise<void> {
  const accountIds = [...new Set(charged.map(({ send }) => send.accountId))].sort();
  for (const accountId of accountIds) {
    for (const chunk of messageChunks(charged.filter(({ send }) => send.accountId === accountId))) {
      const holds = chunk.map(({ entry, message }): AccountLedgerEntry => ({
        kind: "hold",
        amount: -message.charge,
        messageId: message.id,
        bulkSendId: message.bulkSendId,
        actor: entry.send.actor,
      }));
      const balance = await applyLedgerEntries(tx, accountId, holds, { requireCover: true, at: now });
      if (balance !== null) continue;
      // The cover was checked in this transaction; a refusal here means that check is wrong.
      throw new Error(`hold refused after the cover check (account ${accountId})`);
    }
  }
}
