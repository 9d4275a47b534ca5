// Client-safe: the message views poll while this says a message may still change.
import { HELD_STATUSES, isMessageStatus, MessageStatus } from "@/lib/model/message-status";

/** How long the views keep polling a carrier-accepted message for its delivery receipt. */
const RECEIPT_WAIT_MS = 60 * 60_000;
/** How long before a scheduled send's time the views start polling it: until then only a cancel moves it. */
const SCHEDULE_LEAD_MS = 60_000;
/** The longest the views wait to look again at a scheduled send (a timer cannot wait the 35 days a schedule may be ahead). */
const MAX_SCHEDULE_WAIT_MS = 60 * 60_000;

/** What the views know of a message that says whether it may still change. */
export type MessageState = {
  status: string;
  deliveredAt: string | null;
  createdAt: string;
  sendAt?: string | null;
  receiptTimedOut?: boolean;
};

/** When the views start polling a scheduled send whose time is further off than SCHEDULE_LEAD_MS; else null. */
function pollingStartOf(message: MessageState, now: number): number | null {
  if (message.status !== MessageStatus.created || !message.sendAt) return null;
  const start = Date.parse(message.sendAt) - SCHEDULE_LEAD_MS;
  return start > now ? start : null;
}

/**
 * Whether a message may change soon: on its way (queued, sending, or scheduled to go within a
 * minute), or accepted by the carrier and awaiting its receipt. A message settled by the receipt
 * timeout (`receiptTimedOut`) awaits nothing.
 */
export function isAwaitingUpdate(message: MessageState, now = Date.now()): boolean {
  if (pollingStartOf(message, now) !== null) return false;
  if (isMessageStatus(message.status) && HELD_STATUSES.includes(message.status)) return true;
  return (
    message.status === MessageStatus.success &&
    !message.deliveredAt &&
    !message.receiptTimedOut &&
    now - Date.parse(message.createdAt) < RECEIPT_WAIT_MS
  );
}

/**
 * How long the views wait before fetching these messages again: `pollMs` while one isAwaitingUpdate;
 * while only scheduled sends wait, until a minute before the earliest one's time (at most an hour,
 * then it is worked out again); false when none will change on its own.
 */
export function nextPollIn(messages: readonly MessageState[], pollMs: number, now = Date.now()): number | false {
  if (messages.some((message) => isAwaitingUpdate(message, now))) return pollMs;
  const starts = messages.map((message) => pollingStartOf(message, now)).filter((start) => start !== null);
  if (starts.length === 0) return false;
  return Math.min(Math.max(Math.min(...starts) - now, pollMs), MAX_SCHEDULE_WAIT_MS);
}
