// Writes validated sends in one transaction: one bulk send, or a batch of concurrent single sends
// (group commit). Each send is evaluated on its own (key still usable, sender approved, charge
// covered) and is accepted or refused whole; a refusal writes nothing for that send and does not
// affect the others.
// SQLite: the writer transaction holds the only write lock, so the balance read is the balance held.
// PostgreSQL: a batch first runs without locking its accounts, so an account's row lock is held
// only from the hold's UPDATE to COMMIT and concurrent batches (other processes) overlap their
// inserts; applyLedgerEntries' conditional UPDATE is the guard. Should the balance have dropped
// meanwhile below a hold, that attempt is rolled back and the batch runs again under FOR UPDATE.
import { sql } from "@/lib/db/client";
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { metrics } from "@/lib/metrics";
import { findUnusableApiKeys, unknownApiKeyError } from "@/lib/api/auth/authenticate-api-key";
import { applyLedgerEntries, type AccountLedgerEntry } from "@/lib/ledger/apply-ledger-entry";
import { getAccountRates } from "@/lib/rates/rates";
import type { Operator } from "@/lib/carriers/operators";
import type { Encoding } from "./segments";
import type { Recipient } from "./msisdn";
import { insertRows } from "@/lib/db/insert-rows";
import { timeOrderedUuid } from "./time-ordered-uuid";

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

/** A stored message as accepted; the fields serializeSms reads, plus what the dashboard shows. */
export type AcceptedMessage = {
  id: string;
  bulkSendId: string | null;
  to: string;
  body: string;
  senderId: string;
  operator: Operator;
  charge: bigint;
  currency: string;
  segments: number;
  encoding: Encoding;
  status: "enqueued";
  operatorResponse: string;
  webhookUrl: string | null;
  test: boolean;
  receivedAt: Date;
  createdAt: Date;
  deliveredAt: null;
};

export type AcceptedSend = { bulkSendId: string | null; currency: string; charge: bigint; messages: AcceptedMessage[] };

type AccountState = { balance: bigint; currency: string };
type Pricing = { rates: Record<Operator, bigint>; approvedSenders: Set<string> };

const MESSAGE_COLUMNS = [
  "id", "accountId", "apiKeyId", "userId", "bulkSendId", "to", "body", "senderId", "operator", "charge", "currency",
  "segments", "encoding", "status", "operatorResponse", "webhookUrl", "test", "nextAttemptAt", "receivedAt", "createdAt", "updatedAt",
] as const;
const EVENT_COLUMNS = ["messageId", "kind", "detail", "createdAt"] as const;
const BULK_COLUMNS = ["id", "accountId", "apiKeyId", "body", "senderId", "webhookUrl", "total", "charge", "currency", "test", "createdAt"] as const;

/** The balance moved between the unlocked read and the hold: run the batch again under the locks. */
class BalanceMovedError extends Error {}

export async function commitSends(sends: PreparedSend[]): Promise<Array<AcceptedSend | AppError>> {
  const pricing = await loadPricing(sends);
  const outcomes = await writeSends(sends, pricing, false).catch((error: unknown) => {
    if (error instanceof BalanceMovedError) return writeSends(sends, pricing, true);
    throw error;
  });
  const accepted = outcomes.reduce((count, outcome) => count + (outcome instanceof AppError ? 0 : outcome.messages.length), 0);
  if (accepted > 0) metrics().messagesAccepted.inc(accepted);
  return outcomes;
}

function writeSends(sends: PreparedSend[], pricing: Map<string, Pricing>, lockAccounts: boolean): Promise<Array<AcceptedSend | AppError>> {
  return sql().transaction(async (tx) => {
    const accounts = await readAccounts(tx, [...pricing.keys()], lockAccounts);
    const now = new Date();
    // The API may have taken a send's key from its cache: a key revoked or expired since then sends
    // nothing. Read in this transaction, so a revoke committed before it is always seen.
    const unusableKeys = await findUnusableApiKeys(tx, [...new Set(sends.flatMap((send) => send.apiKeyId ?? []))], now);
    const results = sends.map((send) =>
      send.apiKeyId && unusableKeys.has(send.apiKeyId)
        ? unknownApiKeyError()
        : evaluate(send, accounts.get(send.accountId), pricing.get(send.accountId)!, now),
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
        sql().all<{ name: string }>(`SELECT "name" FROM "SenderId" WHERE "accountId" = ? AND "status" = 'approved'`, [accountId]),
      ]);
      const approved = senders.map((sender) => sender.name).filter((name) => senderNames.has(name));
      return [accountId, { rates, approvedSenders: new Set(approved) }];
    }),
  );
  return new Map(entries);
}

async function readAccounts(tx: SqlExecutor, accountIds: string[], lock: boolean): Promise<Map<string, AccountState>> {
  const ordered = [...accountIds].sort(); // one lock order for every transaction: no deadlocks
  const forUpdate = lock && tx.dialect === "postgres" ? " FOR UPDATE" : "";
  const rows = await tx.all<{ id: string; balance: number | string; currency: string }>(
    `SELECT "id", "balance", "currency" FROM "Account" WHERE "id" IN (${ordered.map(() => "?").join(", ")}) ORDER BY "id"${forUpdate}`,
    ordered,
  );
  return new Map(rows.map((row) => [row.id, { balance: BigInt(row.balance), currency: row.currency }]));
}

/** Prices a send and, when its account can pay, takes the charge from the in-memory balance. */
function evaluate(send: PreparedSend, account: AccountState | undefined, pricing: Pricing, now: Date): AcceptedSend | AppError {
  if (!account) return AppError.notFound("Account");
  if (!pricing.approvedSenders.has(send.senderName)) {
    return new AppError("BAD_REQUEST", "Sender id not approved", {
      description: `"${send.senderName}" is not an approved sender id of this account`,
      fields: [{ field: "from", description: "is not an approved sender id of this account" }],
    });
  }
  const bulkSendId = send.bulk ? timeOrderedUuid() : null;
  let total = 0n;
  const messages = send.recipients.map((recipient): AcceptedMessage => {
    const charge = BigInt(send.segments) * pricing.rates[recipient.operator];
    total += charge;
    return {
      id: timeOrderedUuid(),
      bulkSendId,
      to: recipient.to,
      body: send.body,
      senderId: send.senderName,
      operator: recipient.operator,
      charge,
      currency: account.currency,
      segments: send.segments,
      encoding: send.encoding,
      status: "enqueued",
      operatorResponse: "",
      webhookUrl: send.webhookUrl,
      test: send.test,
      receivedAt: now,
      createdAt: now,
      deliveredAt: null,
    };
  });
  if (!send.test) {
    if (account.balance < total) {
      return new AppError("INSUFFICIENT_BALANCE", "Insufficient balance", {
        description: `The prepaid balance does not cover this send: it costs ${total} and ${account.balance} is available (ten-thousandths of ${account.currency})`,
      });
    }
    account.balance -= total;
  }
  return { bulkSendId, currency: account.currency, charge: total, messages };
}

async function writeAccepted(tx: SqlExecutor, sends: PreparedSend[], results: Array<AcceptedSend | AppError>, now: Date, accountsLocked: boolean): Promise<void> {
  const at = toDbTime(now);
  const bulkRows: unknown[][] = [];
  const messageRows: unknown[][] = [];
  const eventRows: unknown[][] = [];
  const holds: { send: PreparedSend; message: AcceptedMessage }[] = [];
  sends.forEach((send, index) => {
    const result = results[index];
    if (result instanceof AppError) return;
    if (result.bulkSendId) {
      bulkRows.push([result.bulkSendId, send.accountId, send.apiKeyId, send.body, send.senderName, send.webhookUrl, result.messages.length, result.charge, result.currency, send.test, at]);
    }
    for (const message of result.messages) {
      messageRows.push([
        message.id, send.accountId, send.apiKeyId, send.userId, message.bulkSendId, message.to, message.body, message.senderId, message.operator,
        message.charge, message.currency, message.segments, message.encoding, message.status, "", message.webhookUrl, message.test, at, at, at, at,
      ]);
      eventRows.push([message.id, "accepted", "", at]);
      if (!send.test) holds.push({ send, message });
    }
  });
  await insertRows(tx, "BulkSend", BULK_COLUMNS, bulkRows);
  await insertRows(tx, "Message", MESSAGE_COLUMNS, messageRows);
  await insertRows(tx, "MessageEvent", EVENT_COLUMNS, eventRows);
  const holdsByAccount = new Map<string, AccountLedgerEntry[]>();
  for (const { send, message } of holds) {
    const entries = holdsByAccount.get(send.accountId) ?? [];
    entries.push({ kind: "hold", amount: -message.charge, messageId: message.id, bulkSendId: message.bulkSendId, actor: send.actor });
    holdsByAccount.set(send.accountId, entries);
  }
  // Sorted: the UPDATEs take the account row locks, always in one order (no deadlocks).
  for (const accountId of [...holdsByAccount.keys()].sort()) {
    const balance = await applyLedgerEntries(tx, accountId, holdsByAccount.get(accountId)!, { requireCover: true, at: now });
    if (balance !== null) continue;
    if (!accountsLocked && tx.dialect === "postgres") throw new BalanceMovedError(`balance of ${accountId} moved`);
    // The cover was checked under the account lock; a refusal here means that check is wrong.
    throw new Error(`hold refused after the cover check (account ${accountId})`);
  }
}
