import { sql } from "@/lib/db/client";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { findTopUp, settleTopUp } from "./top-up-requests";

/** The owner withdraws their account's pending request; another account's is NOT_FOUND. */
export async function cancelTopUp(input: { accountId: string; requestId: string; actor: string }): Promise<void> {
  const request = await findTopUp(input.requestId, input.accountId);
  await sql().transaction((tx) => settleTopUp(tx, { id: request.id, state: "cancelled", actor: input.actor }));
  await recordAuditEvent({
    accountId: request.accountId,
    actor: input.actor,
    action: "top_up.cancelled",
    targetType: "top_up_request",
    targetId: request.id,
    data: { amount: request.amount.toString(), reference: request.reference },
  });
}
