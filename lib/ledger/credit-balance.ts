import { sql } from "@/lib/db/client";
import type { SqlExecutor } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { formatAmount, MAX_BALANCE } from "@/lib/money";
import { emitBalanceLowCrossings } from "@/lib/webhooks/low-balance";
import { applyLedgerEntry } from "./apply-ledger-entry";

export async function creditBalance(input: {
  accountId: string;
  amount: bigint;
  reason?: string;
  actor: string;
  /** Runs first in the credit's transaction (a top-up request's claim); when it throws, nothing is credited. */
  claim?: (tx: SqlExecutor) => Promise<void>;
  /** Recorded with the credit's audit event besides its amount and reason. */
  auditData?: Record<string, unknown>;
}): Promise<{ balance: bigint }> {
  if (input.amount <= 0n) {
    throw AppError.validation([{ field: "amount", description: "must be greater than zero" }]);
  }
  if (input.amount > MAX_BALANCE) throw balanceCeilingError();
  const balance = await sql().transaction(async (tx) => {
    await input.claim?.(tx);
    const after = await applyLedgerEntry(tx, {
      accountId: input.accountId,
      kind: "credit",
      amount: input.amount,
      reason: input.reason ?? "credit",
      actor: input.actor,
      requireCover: false,
    });
    // Thrown inside the transaction: the credit and its ledger row are rolled back.
    if (after !== null && after > MAX_BALANCE) throw balanceCeilingError();
    return after;
  });
  if (balance === null) throw AppError.notFound("Account");
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "balance.credited",
    targetType: "account",
    targetId: input.accountId,
    data: { amount: input.amount.toString(), reason: input.reason ?? "", ...input.auditData },
  });
  await emitBalanceLowCrossings([input.accountId]);
  return { balance };
}

function balanceCeilingError(): AppError {
  return AppError.validation([{ field: "amount", description: `would take the balance over the maximum of ${formatAmount(MAX_BALANCE)}` }]);
}
