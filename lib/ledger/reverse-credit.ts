// A credit is never edited or deleted: it is undone by a correcting entry, an "adjustment" row of
// the opposite amount whose reason names the credit it reverses. The reason prefix is how a
// reversal is found again, so a credit is reversed at most once.
import { sql } from "@/lib/db/client";
import { parseRowOrNull } from "@/lib/db/stores/shared/rows";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { emitBalanceLowCrossings } from "@/lib/webhooks/low-balance";
import { applyLedgerEntry } from "./apply-ledger-entry";

export const REVERSAL_PREFIX = "Reversal of credit #";

function reversalReasonPrefix(creditId: number): string {
  return `${REVERSAL_PREFIX}${creditId}:`;
}

export async function reverseCredit(input: {
  accountId: string;
  creditId: number;
  note: string;
  actor: string;
}): Promise<{ balance: bigint; amount: bigint }> {
  const note = input.note.trim();
  if (note.length < 3) throw AppError.validation([{ field: "note", description: "say why, in a few words" }]);
  const prefix = reversalReasonPrefix(input.creditId);
  const result = await sql().transaction(async (tx) => {
    const credit = await tx.get(`SELECT "amount" FROM "LedgerEntry" WHERE "id" = ? AND "accountId" = ? AND "kind" = 'credit'`, [
      input.creditId,
      input.accountId,
    ]);
    const amount = parseRowOrNull(credit, { amount: "bigint" })?.amount;
    if (amount === undefined) throw AppError.notFound("Credit");
    const countReversals = async () => {
      const row = await tx.get(
        `SELECT COUNT(*) AS "count" FROM "LedgerEntry" WHERE "accountId" = ? AND "kind" = 'adjustment' AND "reason" LIKE ?`,
        [input.accountId, `${prefix}%`],
      );
      return parseRowOrNull(row, { count: "integer" })?.count ?? 0;
    };
    if ((await countReversals()) > 0) throw alreadyReversed();
    // The account row's update comes first: it serializes reversals of the same account, so the
    // count below sees any reversal committed before this one.
    const balance = await applyLedgerEntry(tx, {
      accountId: input.accountId,
      kind: "adjustment",
      amount: -amount,
      reason: `${prefix} ${note}`,
      actor: input.actor,
      requireCover: true,
    });
    if (balance === null) {
      throw new AppError("INSUFFICIENT_BALANCE", "The balance no longer covers this credit", {
        description: "The account has already spent part of this credit; reversing it would take the balance below zero",
      });
    }
    if ((await countReversals()) > 1) throw alreadyReversed();
    return { balance, amount };
  });
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "balance.credit_reversed",
    targetType: "ledger_entry",
    targetId: String(input.creditId),
    data: { amount: result.amount.toString(), note },
  });
  await emitBalanceLowCrossings([input.accountId]);
  return result;
}

function alreadyReversed(): AppError {
  return new AppError("CONFLICT", "This credit has already been reversed");
}
