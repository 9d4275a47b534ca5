import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { fieldErrorsOf, topUpRequestSchema } from "./credit-schemas";

/** An owner asks for a top-up: amount (as typed), the payment's reference and an optional note. */
export async function requestTopUp(input: { accountId: string; amount: string; reference: string; note?: string; actor: string }) {
  const parsed = topUpRequestSchema.safeParse({ amount: input.amount, reference: input.reference, note: input.note ?? "" });
  if (!parsed.success) throw AppError.validation(fieldErrorsOf(parsed.error));
  const account = await db().account.findUnique({ where: { id: input.accountId }, select: { currency: true } });
  if (!account) throw AppError.notFound("Account");
  const request = await db().topUpRequest.create({
    data: { accountId: input.accountId, currency: account.currency, requestedBy: input.actor, ...parsed.data },
  });
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "top_up.requested",
    targetType: "top_up_request",
    targetId: request.id,
    data: { amount: request.amount.toString(), reference: request.reference },
  });
  return request;
}
