// A failed message's hold goes back to the balance exactly once: the ledger's unique
// (messageId, kind) refuses a second release, and that refusal reads as "already refunded". The
// savepoint keeps the surrounding transaction usable after the refusal (PostgreSQL aborts it otherwise).
import { isUniqueViolation, type SqlExecutor } from "@/lib/db/sql";
import { readHoldAmount } from "@/lib/db/stores/shared/ledger-rows";
import { applyLedgerEntry } from "@/lib/ledger/apply-ledger-entry";
import { recordMessageEvent } from "./record-message-event";

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
