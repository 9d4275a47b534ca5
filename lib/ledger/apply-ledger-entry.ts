// Every balance change is one call of this function inside a transaction: the account's balance
// moves and a ledger row records it, together or not at all. The balance column is a cache of the
// ledger's sum (checked by tests/integration/ledger.test.ts).
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";

export type LedgerKind = "credit" | "hold" | "release" | "adjustment";

export type LedgerEntryInput = {
  accountId: string;
  kind: LedgerKind;
  /** Signed: negative takes money from the balance. */
  amount: bigint;
  messageId?: string | null;
  bulkSendId?: string | null;
  reason?: string;
  actor: string;
  /** Refuse (return null) instead of letting the balance go below zero. */
  requireCover: boolean;
  at?: Date;
};

/** Returns the balance after the entry, or null when requireCover refused it (nothing changed). */
export async function applyLedgerEntry(tx: SqlExecutor, entry: LedgerEntryInput): Promise<bigint | null> {
  const now = toDbTime(entry.at ?? new Date());
  const updated = await tx.get<{ balance: number | string }>(
    entry.requireCover
      ? `UPDATE "Account" SET "balance" = "balance" + ?, "updatedAt" = ? WHERE "id" = ? AND "balance" + ? >= 0 RETURNING "balance"`
      : `UPDATE "Account" SET "balance" = "balance" + ?, "updatedAt" = ? WHERE "id" = ? RETURNING "balance"`,
    entry.requireCover ? [entry.amount, now, entry.accountId, entry.amount] : [entry.amount, now, entry.accountId],
  );
  if (!updated) return null;
  const balanceAfter = BigInt(updated.balance);
  await tx.run(
    `INSERT INTO "LedgerEntry" ("accountId", "kind", "amount", "balanceAfter", "messageId", "bulkSendId", "reason", "actor", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      entry.accountId,
      entry.kind,
      entry.amount,
      balanceAfter,
      entry.messageId ?? null,
      entry.bulkSendId ?? null,
      entry.reason ?? "",
      entry.actor,
      now,
    ],
  );
  return balanceAfter;
}
