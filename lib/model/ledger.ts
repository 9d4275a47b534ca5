// The ledger's vocabulary: every balance change is one of these rows.
export type LedgerKind = "credit" | "hold" | "release" | "adjustment";

/** One entry of an account's ledger, as written with others of the same account. */
export type AccountLedgerEntry = {
  kind: LedgerKind;
  /** Signed: negative takes money from the balance. */
  amount: bigint;
  messageId?: string | null;
  bulkSendId?: string | null;
  reason?: string;
  actor: string;
};
