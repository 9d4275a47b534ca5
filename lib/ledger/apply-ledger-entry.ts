// Every balance change goes through applyLedgerEntries inside a transaction: the account's balance
// moves and ledger rows record it, together or not at all (lib/db/stores/shared/ledger-rows.ts).
import type { SqlExecutor } from "@/lib/db/sql";
import { applyLedgerEntries } from "@/lib/db/stores/shared/ledger-rows";
import type { AccountLedgerEntry } from "@/lib/model/ledger";

export { applyLedgerEntries } from "@/lib/db/stores/shared/ledger-rows";
export type { AccountLedgerEntry, LedgerKind } from "@/lib/model/ledger";

export type LedgerEntryInput = AccountLedgerEntry & {
  accountId: string;
  /** Refuse (return null) instead of letting the balance go below zero. */
  requireCover: boolean;
  at?: Date;
};

/** Returns the balance after the entry, or null when requireCover refused it (nothing changed). */
export async function applyLedgerEntry(tx: SqlExecutor, entry: LedgerEntryInput): Promise<bigint | null> {
  const { accountId, requireCover, at, ...own } = entry;
  return applyLedgerEntries(tx, accountId, [own], { requireCover, at });
}
