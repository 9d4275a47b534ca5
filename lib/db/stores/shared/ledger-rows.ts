// Every balance change goes through applyLedgerEntries inside a transaction: the account's balance
// moves and ledger rows record it, together or not at all. The balance column is a cache of the
// ledger's sum (checked by tests/integration/ledger.test.ts). Many entries of one account (a bulk
// send's holds) cost one UPDATE and a few multi-row INSERTs, whatever their number.
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { insertRows } from "@/lib/db/insert-rows";
import type { AccountLedgerEntry } from "@/lib/model/ledger";
import { parseRowOrNull } from "./rows";

/** LedgerEntry columns of each entry's own, and those the entries of one call usually share. */
const OWN_COLUMNS = ["amount", "balanceAfter", "messageId"] as const;
const SHARED_COLUMNS = ["accountId", "kind", "bulkSendId", "reason", "actor", "createdAt"] as const;

/** An entry's kind, bulk send, reason and actor: the shared columns but account and time. */
function description(entry: AccountLedgerEntry): unknown[] {
  return [entry.kind, entry.bulkSendId ?? null, entry.reason ?? "", entry.actor];
}

/**
 * Applies entries of one account in order, all or none: with requireCover, refused (null, nothing
 * changed) when their sum would take the balance below zero. Returns the balance after the last.
 */
export async function applyLedgerEntries(
  tx: SqlExecutor,
  accountId: string,
  entries: readonly AccountLedgerEntry[],
  options: { requireCover: boolean; at?: Date },
): Promise<bigint | null> {
  const now = toDbTime(options.at ?? new Date());
  const total = entries.reduce((sum, entry) => sum + entry.amount, 0n);
  const updated = await tx.get<{ balance: number | string | bigint }>(
    options.requireCover
      ? `UPDATE "Account" SET "balance" = "balance" + ?, "updatedAt" = ? WHERE "id" = ? AND "balance" + ? >= 0 RETURNING "balance"`
      : `UPDATE "Account" SET "balance" = "balance" + ?, "updatedAt" = ? WHERE "id" = ? RETURNING "balance"`,
    options.requireCover ? [total, now, accountId, total] : [total, now, accountId],
    { prepared: true },
  );
  if (!updated) return null;
  const finalBalance = BigInt(updated.balance);
  let running = finalBalance - total;
  const rows = entries.map((entry) => {
    running += entry.amount;
    return [entry.amount, running, entry.messageId ?? null];
  });
  // When every entry has one description (a bulk send's holds), it is bound once per statement.
  const first = description(entries[0]);
  if (entries.every((entry) => description(entry).every((value, index) => value === first[index]))) {
    await insertRows(tx, "LedgerEntry", OWN_COLUMNS, rows, { columns: SHARED_COLUMNS, values: [accountId, ...first, now] });
  } else {
    await insertRows(
      tx,
      "LedgerEntry",
      [...OWN_COLUMNS, ...SHARED_COLUMNS],
      rows.map((row, index) => [...row, accountId, ...description(entries[index]), now]),
    );
  }
  return finalBalance;
}

/** The message's hold (a negative amount), or null when it has none (a test message). */
export async function readHoldAmount(tx: SqlExecutor, messageId: string): Promise<bigint | null> {
  const hold = await tx.get(`SELECT "amount" FROM "LedgerEntry" WHERE "messageId" = ? AND "kind" = 'hold'`, [messageId]);
  return parseRowOrNull(hold, { amount: "bigint" })?.amount ?? null;
}
