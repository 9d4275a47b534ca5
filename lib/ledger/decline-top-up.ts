import { sql } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { declineReasonSchema } from "./credit-schemas";
import { findTopUp, settleTopUp } from "./top-up-requests";

/** Turns a pending request down with a reason the owner reads on the Balance page; nothing is credited. */
export async function declineTopUp(input: { requestId: string; reason: string; actor: string }): Promise<void> {
  const reason = declineReasonSchema.safeParse(input.reason);
  if (!reason.success) throw AppError.validation([{ field: "reason", description: reason.error.issues[0].message }]);
  const request = await findTopUp(input.requestId);
  await sql().transaction((tx) => settleTopUp(tx, { id: request.id, state: "declined", actor: input.actor, declineReason: reason.data }));
  await recordAuditEvent({
    accountId: request.accountId,
    actor: input.actor,
    action: "top_up.declined",
    targetType: "top_up_request",
    targetId: request.id,
    data: { amount: request.amount.toString(), reference: request.reference, reason: reason.data },
  });
}
