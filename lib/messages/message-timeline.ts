// A message's timeline, as the dashboard shows it. The happy path (accepted, dispatched, carrier
// accepted, delivered) is read from the message's own timestamps and parts, so the send and
// dispatch paths write no row for it, where storing it would cost three to four MessageEvent rows per
// message on the hottest paths. What the columns cannot tell (retries,
// failures, refunds) is stored as MessageEvent rows and merged in by time.

/** The stored event of a carrier-accepted message settled as sent because no receipt came in time (lib/delivery/receipt-timeout.ts). */
export const RECEIPT_TIMEOUT_EVENT = "receipt_timeout";

export type TimelineEvent = { id: string; kind: string; detail: string; createdAt: Date };

type TimelineMessage = {
  operator: string;
  test: boolean;
  attempts: number;
  receivedAt: Date;
  dispatchedAt: Date | null;
  deliveredAt: Date | null;
};
type TimelinePart = { carrierMessageId: string; createdAt: Date };
type StoredEvent = { id: number; kind: string; detail: string; createdAt: Date };

/** The carrier's acceptance as the message's operator_response states it, e.g. "ESME_ROK id:a1,a2". */
export function describeAcceptance(carrierMessageIds: readonly string[]): string {
  return `ESME_ROK id:${carrierMessageIds.join(",")}`;
}

/** "attempt 2 to econet", the attempt that ended the message (at dispatchedAt). */
export function describeAttempt(message: Pick<TimelineMessage, "attempts" | "operator" | "test">): string {
  return `attempt ${message.attempts} to ${message.operator}${message.test ? " (simulator: test message)" : ""}`;
}

/** Parts in part-number order; stored events in id order. Ties in time keep the happy path first. */
export function buildMessageTimeline(
  message: TimelineMessage,
  parts: readonly TimelinePart[],
  stored: readonly StoredEvent[],
): TimelineEvent[] {
  const derived: TimelineEvent[] = [{ id: "accepted", kind: "accepted", detail: "", createdAt: message.receivedAt }];
  if (message.dispatchedAt) {
    const detail = parts.length > 0 ? `${describeAttempt(message)}, ${parts.length} part(s)` : describeAttempt(message);
    derived.push({ id: "dispatched", kind: "dispatched", detail, createdAt: message.dispatchedAt });
  }
  // Parts are written once, when the carrier accepted every one of them.
  if (parts.length > 0) {
    derived.push({
      id: "success",
      kind: "success",
      detail: describeAcceptance(parts.map((part) => part.carrierMessageId)),
      createdAt: parts[0].createdAt,
    });
  }
  if (message.deliveredAt) derived.push({ id: "delivered", kind: "delivered", detail: "receipt DELIVRD", createdAt: message.deliveredAt });
  const events = [...derived, ...stored.map((event) => ({ ...event, id: `event-${event.id}` }))];
  // Array.prototype.sort is stable: equal times keep the order above.
  return events.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}
