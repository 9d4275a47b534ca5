// Cancelling sends not yet handed to a carrier: a scheduled or queued message ends failed with
// operator_response CANCELLED and its hold refunded (lib/delivery/fail-queued-messages.ts); one a
// carrier already has, or may have (queued again after a submit got no clear answer), is not
// cancelled. Scoped like the API's reads: the key's account and mode.
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { CANCELLED_REASON, CANCELLED_RESPONSE, failQueuedMessages, QUEUED_STATUSES } from "@/lib/delivery/fail-queued-messages";
import type { Message } from "@/lib/db/stores/shared/rows";

/** Whose messages: an account's live or test traffic. */
export type CancelScope = { accountId: string; test: boolean };

export type BulkCancellation = { bulkSendId: string; total: number; cancelled: number; notCancelled: number };

const CANCELLED = { response: CANCELLED_RESPONSE, reason: CANCELLED_REASON };
/** Queued again after a submit got no clear answer: a carrier may deliver it, so it stays. */
const NOT_AT_CARRIER = `"mayBeAtCarrier" = ?`;

/** Whether a cancel would stop the message: scheduled or queued, and no carrier has it nor may have it. */
export function isCancellable(message: { status: string; mayBeAtCarrier: boolean }): boolean {
  return (QUEUED_STATUSES as readonly string[]).includes(message.status) && !message.mayBeAtCarrier;
}

/** The messages isCancellable holds for, as a filter over Message. */
export const CANCELLABLE_MESSAGES = { status: { in: [...QUEUED_STATUSES] }, mayBeAtCarrier: false };

/**
 * The message as it is after the cancel, and whether this call cancelled it (false: it was cancelled
 * before). Not found: 404. Not queued any more (a carrier has it, or it is final): 409 naming its
 * status, and nothing changes.
 */
export async function cancelMessage(scope: CancelScope, id: string): Promise<{ message: Message; cancelledNow: boolean }> {
  const cancelled = await failQueuedMessages(
    { text: `"id" = ? AND "accountId" = ? AND "test" = ? AND ${NOT_AT_CARRIER}`, params: [id, scope.accountId, scope.test, false] },
    CANCELLED,
  );
  const message = await db().message.findFirst({ where: { id, accountId: scope.accountId, test: scope.test } });
  if (!message) throw AppError.notFound("SMS");
  if (message.status === "failed" && message.operatorResponse === CANCELLED_RESPONSE)
    return { message, cancelledNow: cancelled.length > 0 };
  if (message.status === "enqueued" && message.mayBeAtCarrier)
    throw new AppError("CONFLICT", "SMS not cancellable", {
      description:
        "The message may already be with a carrier: a submit of it got no clear answer (a dropped link or a timeout), so it is queued to be sent again and can no longer be cancelled",
    });
  throw new AppError("CONFLICT", "SMS not cancellable", {
    description: `The message is ${message.status}: only a message not yet handed to a carrier (created or enqueued) can be cancelled`,
  });
}

/** Cancels every message of the bulk send still queued; counts what it cancelled. Unknown bulk send: 404. */
export async function cancelBulkSend(scope: CancelScope, bulkSendId: string): Promise<BulkCancellation> {
  const bulk = await db().bulkSend.findFirst({ where: { id: bulkSendId, accountId: scope.accountId, test: scope.test } });
  if (!bulk) throw AppError.notFound("Bulk send");
  const cancelled = await failQueuedMessages(
    { text: `"bulkSendId" = ? AND "accountId" = ? AND ${NOT_AT_CARRIER}`, params: [bulkSendId, scope.accountId, false] },
    CANCELLED,
  );
  return { bulkSendId, total: bulk.total, cancelled: cancelled.length, notCancelled: bulk.total - cancelled.length };
}
