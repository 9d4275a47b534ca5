// A failed message's hold goes back to the balance exactly once: the ledger's unique
// (messageId, kind) refuses a second release, and that refusal reads as "already refunded". The
// savepoint keeps the surrounding transaction usable after the refusal (PostgreSQL aborts it otherwise).
import { isUniqueViolation, type SqlExecutor } from "@/lib/db/sql";
import { inList } from "@/lib/db/batch-lists";
import { parseRows } from "@/lib/db/stores/shared/rows";
import { readHoldAmount } from "@/lib/db/stores/shared/ledger-rows";
import { applyLedgerEntries, applyLedgerEntry, type AccountLedgerEntry } from "@/lib/ledger/apply-ledger-entry";
import { recordMessageEvent, recordMessageEvents } from "./record-message-event";

/** Releases the message's hold (test messages have none); true when this call refunded it. */
export async function refundMessage(
  tx: SqlExecutor,
  message: { id: string; accountId: string },
  reason: string,
  at: Date,
): Promise<boolean> {
  const hold = await readHoldAmount(tx, message.id);
  if (hold === null) return false;
  const amount = -hold;
  await tx.run(`SAVEPOINT refund_message`);
  try {
    await applyLedgerEntry(tx, {
      accountId: message.accountId,
      kind: "release",
      amount,
      messageId: message.id,
      reason,
      actor: "system",
      requireCover: false,
      at,
    });
  } catch (error) {
    await tx.run(`ROLLBACK TO SAVEPOINT refund_message`);
    await tx.run(`RELEASE SAVEPOINT refund_message`);
    if (isUniqueViolation(error)) return false;
    throw error;
  }
  await tx.run(`RELEASE SAVEPOINT refund_message`);
  // The amount is the release's ledger row; the event says why.
  await recordMessageEvent(tx, message.id, "refunded", reason, at);
  return true;
}

/**
 * Releases the holds of messages this transaction has just moved from the queue to failed (a cancel,
 * an expiry): a queued message has never been refunded, and its row lock keeps every other path from
 * refunding it now, so the releases are written together, one balance change per account, instead of
 * one guarded entry per message. Test messages have no hold.
 */
export async function refundQueuedMessages(
  tx: SqlExecutor,
  messages: readonly { id: string; accountId: string }[],
  reason: string,
  at: Date,
): Promise<void> {
  if (messages.length === 0) return;
  const ids = inList(messages.map((message) => message.id));
  const holds = parseRows(
    await tx.all(`SELECT "messageId", "amount" FROM "LedgerEntry" WHERE "kind" = 'hold' AND "messageId" IN ${ids.text}`, ids.params),
    { messageId: "text", amount: "bigint" },
  );
  const holdOf = new Map(holds.map((hold) => [hold.messageId, hold.amount]));
  const releasesByAccount = new Map<string, AccountLedgerEntry[]>();
  const refunded: string[] = [];
  for (const message of messages) {
    const hold = holdOf.get(message.id);
    if (hold === undefined) continue;
    const releases = releasesByAccount.get(message.accountId) ?? [];
    releases.push({ kind: "release", amount: -hold, messageId: message.id, reason, actor: "system" });
    releasesByAccount.set(message.accountId, releases);
    refunded.push(message.id);
  }
  for (const [accountId, releases] of releasesByAccount) await applyLedgerEntries(tx, accountId, releases, { requireCover: false, at });
  await recordMessageEvents(tx, refunded, "refunded", reason, at);
}
