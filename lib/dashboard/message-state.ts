// Client-safe: the message views poll while this says a message may still change.
import { HELD_STATUSES, isMessageStatus, MessageStatus } from "@/lib/model/message-status";

/** How long the views keep polling a carrier-accepted message for its delivery receipt. */
const RECEIPT_WAIT_MS = 60 * 60_000;

/**
 * Whether a message may still change: not yet final, or accepted by the carrier and awaiting its
 * receipt. A message settled by the receipt timeout (`receiptTimedOut`) awaits nothing.
 */
export function isAwaitingUpdate(
  message: { status: string; deliveredAt: string | null; createdAt: string; receiptTimedOut?: boolean },
  now = Date.now(),
): boolean {
  if (isMessageStatus(message.status) && HELD_STATUSES.includes(message.status)) return true;
  return (
    message.status === MessageStatus.success &&
    !message.deliveredAt &&
    !message.receiptTimedOut &&
    now - Date.parse(message.createdAt) < RECEIPT_WAIT_MS
  );
}
