// balance.low: the account's available balance went below its threshold. Once per crossing:
// Account.lowBalanceAlerted is set by the same conditional UPDATE that decides to fire, and cleared
// only when a check finds the balance back at or above the threshold. Checked after each committed
// send and each credit or reversal, and when the threshold is set; an account without a threshold
// costs no query (its absence is read from the endpoint cache).
import { db, sql } from "@/lib/db/client";
import { parseRowOrNull } from "@/lib/db/stores/shared/rows";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { MAX_BALANCE, formatAmount } from "@/lib/money";
import { emitAccountEvent, hasLowBalanceThreshold, invalidateEndpointCache, refreshEndpointCache } from "./account-events";

/** Sets (or with null clears) the threshold, then checks the balance against it at once. */
export async function setLowBalanceThreshold(input: { accountId: string; threshold: bigint | null; actor: string }): Promise<void> {
  if (input.threshold !== null && input.threshold <= 0n)
    throw AppError.validation([{ field: "threshold", description: "must be a positive amount" }]);
  // Worded as a credit's ceiling is: a balance can never be above it, so neither can a threshold.
  if (input.threshold !== null && input.threshold > MAX_BALANCE)
    throw AppError.validation([{ field: "threshold", description: `must be at most ${formatAmount(MAX_BALANCE)}` }]);
  const changed = await db().account.updateMany({
    where: { id: input.accountId },
    data: { lowBalanceThreshold: input.threshold, lowBalanceAlerted: false },
  });
  if (changed.count === 0) throw AppError.notFound("Account");
  invalidateEndpointCache();
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "balance.threshold_set",
    targetType: "account",
    targetId: input.accountId,
    data: { threshold: input.threshold?.toString() ?? null },
  });
  await emitBalanceLowCrossings([input.accountId]);
}

/** Fires balance.low for each of these accounts whose balance has just crossed below its threshold. */
export async function emitBalanceLowCrossings(accountIds: Iterable<string>): Promise<void> {
  await refreshEndpointCache();
  for (const accountId of new Set(accountIds)) {
    if (!hasLowBalanceThreshold(accountId)) continue;
    // Back at or above the threshold: the next fall below is a new crossing.
    await sql().run(
      `UPDATE "Account" SET "lowBalanceAlerted" = false WHERE "id" = ? AND "lowBalanceAlerted" = true AND "lowBalanceThreshold" IS NOT NULL AND "balance" >= "lowBalanceThreshold"`,
      [accountId],
    );
    // The flag and the event in one transaction: a crossing is never marked without its event.
    await sql().transaction(async (tx) => {
      const row = await tx.get(
        `UPDATE "Account" SET "lowBalanceAlerted" = true WHERE "id" = ? AND "lowBalanceAlerted" = false AND "lowBalanceThreshold" IS NOT NULL AND "balance" < "lowBalanceThreshold"
         RETURNING "balance", "lowBalanceThreshold", "currency"`,
        [accountId],
      );
      const crossed = parseRowOrNull(row, { balance: "bigint", lowBalanceThreshold: "bigint", currency: "text" });
      if (!crossed) return;
      await emitAccountEvent(
        accountId,
        "balance.low",
        { balance: String(crossed.balance), threshold: String(crossed.lowBalanceThreshold), currency: crossed.currency },
        { executor: tx },
      );
    });
  }
}
