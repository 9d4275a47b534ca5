import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { AppError } from "@/lib/errors";
import { creditBalance } from "./credit-balance";
import { findTopUp, settleTopUp } from "./top-up-requests";

/** The reason of the credit an approval writes: it names the request and the payment. */
export function topUpCreditReason(request: { id: string; reference: string }): string {
  return `Top-up request ${request.id}: ${request.reference}`;
}

/**
 * Credits the requested amount through the ordinary credit, once: the request's move out of
 * "pending" and the ledger credit are one transaction, so a second approval (a double click, another
 * admin) finds it approved and credits nothing.
 */
export async function approveTopUp(input: { requestId: string; actor: string }): Promise<{ balance: bigint }> {
  const request = await findTopUp(input.requestId);
  if (request.state !== "pending") throw new AppError("CONFLICT", `This top-up request is already ${request.state}`);
  const result = await creditBalance({
    accountId: request.accountId,
    amount: request.amount,
    reason: topUpCreditReason(request),
    actor: input.actor,
    claim: (tx) => settleTopUp(tx, { id: request.id, state: "approved", actor: input.actor }),
    auditData: { topUpRequestId: request.id },
  });
  await recordAuditEvent({
    accountId: request.accountId,
    actor: input.actor,
    action: "top_up.approved",
    targetType: "top_up_request",
    targetId: request.id,
    data: { amount: request.amount.toString(), reference: request.reference },
  });
  return result;
}
