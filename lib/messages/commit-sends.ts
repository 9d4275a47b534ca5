// Writes validated sends in one transaction: one bulk send, or a batch of concurrent single sends
// (group commit). Each send is evaluated on its own (key still usable, sender approved, charge
// covered) and is accepted or refused whole; a refusal writes nothing for that send and does not
// affect the others.
// SQLite: the writer transaction holds the only write lock, so the balance read is the balance held.
// PostgreSQL: live single sends of one account (the usual group commit) are written by one
// statement; any other batch first runs without locking its accounts, so an account's row lock is
// held only from the hold's UPDATE to COMMIT and concurrent batches (other processes) overlap their
// inserts; applyLedgerEntries' conditional UPDATE is the guard. Should the balance have dropped
// meanwhile below a hold (or a key been revoked before the one statement), the batch runs again in
// a transaction under FOR UPDATE.
import { sql } from "@/lib/db/client";
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { metrics } from "@/lib/metrics";
import { findUnusableApiKeys, unknownApiKeyError } from "@/lib/keys/find-unusable-api-keys";
import { applyLedgerEntries, type AccountLedgerEntry } from "@/lib/ledger/apply-ledger-entry";
import { getAccountRates } from "@/lib/rates/rates";
import { operators, type Operator } from "@/lib/carriers/operators";
import type { Encoding } from "./segments";
import type { Recipient } from "./msisdn";
import { insertRows } from "@/lib/db/insert-rows";
import { inList } from "@/lib/db/batch-lists";
import { timeOrderedUuid } from "./time-ordered-uuid";
import { readSendingAccount, writeSendsInOneStatement } from "./write-sends-in-one-statement";
import { HAS_OPT_OUTS_COLUMN, readOptedOut, withoutOptedOut, type OptedOutRecipient } from "./opt-out-check";

export type PreparedSend = {
  accountId: string;
  senderName: string;
  body: string;
  encoding: Encoding;
  segments: number;
  recipients: Recipient[];
  webhookUrl: string | null;
  actor: string;
  apiKeyId: string | null;
  userId: string | null;
  test: boolean;
  bulk: boolean;
};

/** What the messages of one accepted send share. */
type SendFields = {
  bulkSendId: string | null;
  body: string;
  senderId: string;
  currency: string;
  segments: number;
  encoding: Encoding;
  webhookUrl: string | null;
  test: boolean;
  acceptedAt: Date;
  /** The charge of one message per carrier (segments × the account's rate). */
  charges: Record<Operator, bigint>;
};

/**
 * A stored message as accepted: the fields serializeSms reads, plus what the dashboard shows. Only
 * its id and recipient are its own, the rest is read from its send: a bulk send keeps 100,000 of
 * these until it has answered, at about 60 bytes each instead of a 17-field object.
 */
export class AcceptedMessage {
  constructor(
    readonly id: string,
    readonly to: string,
    readonly operator: Operator,
    private readonly send: SendFields,
  ) {}

  get bulkSendId(): string | null {
    return this.send.bulkSendId;
  }
  get body(): string {
    return this.send.body;
  }
  get senderId(): string {
    return this.send.senderId;
  }
  get charge(): bigint {
    return this.send.charges[this.operator];
  }
  get currency(): string {
    return this.send.currency;
  }
  get segments(): number {
    return this.send.segments;
  }
  get encoding(): Encoding {
    return this.send.encoding;
  }
  get status(): "enqueued" {
    return "enqueued";
  }
  get operatorResponse(): string {
    return "";
  }
  get webhookUrl(): string | null {
    return this.send.webhookUrl;
  }
  get test(): boolean {
    return this.send.test;
  }
  get receivedAt(): Date {
    return this.send.acceptedAt;
  }
  get createdAt(): Date {
    return this.send.acceptedAt;
  }
  get deliveredAt(): null {
    return null;
  }
}

export type AcceptedSend = {
  bulkSendId: string | null;
  currency: string;
  charge: bigint;
  messages: AcceptedMessage[];
  /** Recipients of a bulk send not sent (nor charged): on the account's opt-out list. */
  optedOut: OptedOutRecipient[];
};
type AcceptedEntry = { send: PreparedSend; result: AcceptedSend };

type AccountState = { balance: bigint; currency: string; hasOptOuts?: boolean };
type Pricing = { rates: Record<Operator, bigint>; approvedSenders: Set<string> };

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
] as const;
const MESSAGE_OWN_COLUMNS = ["id", "to", "operator", "charge"] as const;
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

/** The balance moved between the unlocked read and the hold: run the batch again under the locks. */
class BalanceMovedError extends Error {}

export async function commitSends(sends: PreparedSend[]): Promise<Array<AcceptedSend | AppError>> {
  const outcomes = await writeBatch(sends);
  const accepted = outcomes.reduce((count, outcome) => count + (outcome instanceof AppError ? 0 : outcome.messages.length), 0);
  if (accepted > 0) metrics().messagesAccepted.inc(accepted);
  return outcomes;
}

async function writeBatch(sends: PreparedSend[]): Promise<Array<AcceptedSend | AppError>> {
  if (sql().dialect === "postgres" && fitsOneStatement(sends)) {
    const written = await writeInOneStatement(sends);
    if (written) return written;
    return writeSends(sends, await loadPricing(sends), true);
  }
  const pricing = await loadPricing(sends);
  return writeSends(sends, pricing, false).catch((error: unknown) => {
    if (error instanceof BalanceMovedError) return writeSends(sends, pricing, true);
    throw error;
  });
}

/** Live single sends of one account: PostgreSQL writes them with one statement (./write-sends-in-one-statement.ts). */
function fitsOneStatement(sends: PreparedSend[]): boolean {
  const [{ accountId }] = sends;
  return sends.every((send) => send.accountId === accountId && !send.bulk && !send.test);
}

/**
 * The batch's sends priced against the account as read (unlocked, one round trip), then written by
 * one statement. Null when a send is refused, or when a key or the balance moved before the
 * statement (it wrote nothing): the caller runs the batch again in a transaction under the
 * account's lock, which reads every key again before any answer.
 */
async function writeInOneStatement(sends: PreparedSend[]): Promise<Array<AcceptedSend | AppError> | null> {
  const [{ accountId }] = sends;
  const account = await readSendingAccount(
    sql(),
    accountId,
    sends.flatMap((send) => send.recipients.map((recipient) => recipient.to)),
  );
  if (!account) return null;
  const now = new Date();
  const results: Array<AcceptedSend | AppError> = [];
  const written: Array<{ send: PreparedSend; result: AcceptedSend }> = [];
  for (const send of sends) {
    const result = evaluate(send, account, account, now, account.optedOut); // the account carries its pricing
    // An opted-out recipient refuses its send alone; any other refusal is answered under the lock.
    if (result instanceof AppError && result.code !== "RECIPIENT_OPTED_OUT") return null;
    results.push(result);
    if (!(result instanceof AppError)) written.push({ send, result });
  }
  if (written.length === 0) return results;
  const held = await writeSendsInOneStatement(sql(), {
    accountId,
    currency: account.currency,
    at: toDbTime(now),
    sends: written.map(({ send, result }) => ({
      apiKeyId: send.apiKeyId,
      userId: send.userId,
      actor: send.actor,
      messages: result.messages,
    })),
  });
  return held ? results : null;
}

function writeSends(sends: PreparedSend[], pricing: Map<string, Pricing>, lockAccounts: boolean): Promise<Array<AcceptedSend | AppError>> {
  return sql().transaction(async (tx) => {
    const accounts = await readAccounts(tx, [...pricing.keys()], lockAccounts);
    const optedOut = await readOptedOutOfAccounts(tx, sends, accounts);
    const now = new Date();
    // The API may have taken a send's key from its cache: a key revoked or expired since then sends
    // nothing. Read in this transaction, and held to its commit, so no send commits after a revoke.
    const unusableKeys = await findUnusableApiKeys(tx, [...new Set(sends.flatMap((send) => send.apiKeyId ?? []))], now, {
      holdUntilCommit: true,
    });
    const results = sends.map((send) =>
      send.apiKeyId && unusableKeys.has(send.apiKeyId)
        ? unknownApiKeyError()
        : evaluate(send, accounts.get(send.accountId), pricing.get(send.accountId)!, now, optedOut.get(send.accountId)),
    );
    await writeAccepted(tx, sends, results, now, lockAccounts);
    return results;
  });
}

/** Rates and the approved sender ids named, once per account of the batch, read before the transaction. */
async function loadPricing(sends: PreparedSend[]): Promise<Map<string, Pricing>> {
  const names = new Map<string, Set<string>>();
  for (const send of sends) {
    const set = names.get(send.accountId) ?? new Set<string>();
    set.add(send.senderName);
    names.set(send.accountId, set);
  }
  const entries = await Promise.all(
    [...names].map(async ([accountId, senderNames]): Promise<[string, Pricing]> => {
      const [rates, senders] = await Promise.all([
        getAccountRates(accountId),
        sql().all<{ name: string }>(`SELECT "name" FROM "SenderId" WHERE "accountId" = ? AND "status" = 'approved'`, [accountId], {
          prepared: true,
        }),
      ]);
      const approved = senders.map((sender) => sender.name).filter((name) => senderNames.has(name));
      return [accountId, { rates, approvedSenders: new Set(approved) }];
    }),
  );
  return new Map(entries);
}

async function readAccounts(tx: SqlExecutor, accountIds: string[], lock: boolean): Promise<Map<string, AccountState>> {
  const ids = inList(accountIds);
  const forUpdate = lock && tx.dialect === "postgres" ? " FOR UPDATE" : "";
  // ORDER BY: one lock order for every transaction, no deadlocks.
  const rows = await tx.all<{ id: string; balance: number | string; currency: string; hasOptOuts: boolean | number }>(
    `SELECT "id", "balance", "currency", ${HAS_OPT_OUTS_COLUMN} FROM "Account" WHERE "id" IN ${ids.text} ORDER BY "id"${forUpdate}`,
    ids.params,
    { prepared: true },
  );
  return new Map(
    rows.map((row) => [row.id, { balance: BigInt(row.balance), currency: row.currency, hasOptOuts: Boolean(row.hasOptOuts) }]),
  );
}

/** The opted-out recipients of the batch, read only for accounts whose list is not empty. */
async function readOptedOutOfAccounts(
  tx: SqlExecutor,
  sends: PreparedSend[],
  accounts: Map<string, AccountState>,
): Promise<Map<string, Set<string>>> {
  const optedOut = new Map<string, Set<string>>();
  for (const [accountId, account] of accounts) {
    if (!account.hasOptOuts) continue;
    const numbers = sends
      .filter((send) => send.accountId === accountId)
      .flatMap((send) => send.recipients.map((recipient) => recipient.to));
    optedOut.set(accountId, await readOptedOut(tx, accountId, numbers));
  }
  return optedOut;
}

/** Prices a send and, when its account can pay, takes the charge from the in-memory balance. */
function evaluate(
  send: PreparedSend,
  account: AccountState | undefined,
  pricing: Pricing,
  now: Date,
  optedOut: ReadonlySet<string> | undefined,
): AcceptedSend | AppError {
  if (!account) return AppError.notFound("Account");
  if (!pricing.approvedSenders.has(send.senderName)) {
    return new AppError("BAD_REQUEST", "Sender id not approved", {
      description: `"${send.senderName}" is not an approved sender id of this account`,
      fields: [{ field: "from", description: "is not an approved sender id of this account" }],
    });
  }
  const sendable = withoutOptedOut(send.recipients, optedOut, send.bulk);
  if (sendable instanceof AppError) return sendable;
  const segments = BigInt(send.segments);
  const charges = {
    econet: segments * pricing.rates.econet,
    netone: segments * pricing.rates.netone,
    telecel: segments * pricing.rates.telecel,
  };
  // Counted per carrier, then priced: no BigInt per recipient.
  const counts = { econet: 0, netone: 0, telecel: 0 };
  for (const recipient of sendable.recipients) counts[recipient.operator]++;
  const total = operators.reduce((sum, operator) => sum + BigInt(counts[operator]) * charges[operator], 0n);
  if (!send.test) {
    if (account.balance < total) {
      return new AppError("INSUFFICIENT_BALANCE", "Insufficient balance", {
        description: `The prepaid balance does not cover this send: it costs ${total} and ${account.balance} is available (ten-thousandths of ${account.currency})`,
      });
    }
    account.balance -= total;
  }
  const fields: SendFields = {
    bulkSendId: send.bulk ? timeOrderedUuid() : null,
    body: send.body,
    senderId: send.senderName,
    currency: account.currency,
    segments: send.segments,
    encoding: send.encoding,
    webhookUrl: send.webhookUrl,
    test: send.test,
    acceptedAt: now,
    charges,
  };
  const messages = sendable.recipients.map((recipient) => new AcceptedMessage(timeOrderedUuid(), recipient.to, recipient.operator, fields));
  return { bulkSendId: fields.bulkSendId, currency: account.currency, charge: total, messages, optedOut: sendable.optedOut };
}

async function writeAccepted(
  tx: SqlExecutor,
  sends: PreparedSend[],
  results: Array<AcceptedSend | AppError>,
  now: Date,
  accountsLocked: boolean,
): Promise<void> {
  const at = toDbTime(now);
  const accepted: AcceptedEntry[] = [];
  sends.forEach((send, index) => {
    const result = results[index];
    if (!(result instanceof AppError)) accepted.push({ send, result });
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
    accountsLocked,
  );
}

function sendValues({ send, result }: AcceptedEntry, at: string): unknown[] {
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
    "enqueued",
    "",
    send.webhookUrl,
    send.test,
    at,
    at,
    at,
    at,
  ];
}

function ownValues(message: AcceptedMessage): unknown[] {
  return [message.id, message.to, message.operator, message.charge];
}

/**
 * The Message rows, a chunk at a time (their timeline's "accepted" is their receivedAt). A batch of one send (every bulk send) binds
 * the send's values once per statement; a batch of single sends binds them per row.
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

/**
 * The ledger holds, after every message row: on PostgreSQL the first hold takes the account's row
 * lock, held to COMMIT. Accounts in one order (no deadlocks); a chunk of holds at a time.
 */
async function holdCharges(tx: SqlExecutor, charged: AcceptedEntry[], now: Date, accountsLocked: boolean): Promise<void> {
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
      if (!accountsLocked && tx.dialect === "postgres") throw new BalanceMovedError(`balance of ${accountId} moved`);
      // The cover was checked under the account lock; a refusal here means that check is wrong.
      throw new Error(`hold refused after the cover check (account ${accountId})`);
    }
  }
}
