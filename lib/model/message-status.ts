// The message state machine: the statuses a message takes, the moves between them and the final
// state. SQL names a status through SQL_STATUS, so a statement cannot misspell one; code compares
// the typed MessageStatus values.
//
//   created ──► enqueued ──► processing ──► success ──► failed
//                  ▲             │  │                     ▲
//                  └─────────────┘  └─────────────────────┘
//   created, enqueued ──► failed (cancelled, or the validity passed: no carrier had it)
//
// - created: a scheduled send waiting for its send_at (acceptance stores other messages enqueued).
// - enqueued: waiting for its next attempt (nextAttemptAt).
// - processing: claimed by a dispatcher under a lease.
// - success: the carrier accepted it; a delivery receipt sets deliveredAt, a failure receipt fails it.
// - failed: final; its charge is refunded. From created or enqueued: cancelled, or its validity passed.
// Back to enqueued from processing: a temporary refusal (retry), a lease run out, a graceful stop.

export const MessageStatus = {
  created: "created",
  enqueued: "enqueued",
  processing: "processing",
  success: "success",
  failed: "failed",
} as const;

export type MessageStatus = (typeof MessageStatus)[keyof typeof MessageStatus];

export const messageStatuses: readonly MessageStatus[] = Object.values(MessageStatus);

const TRANSITIONS: Readonly<Record<MessageStatus, readonly MessageStatus[]>> = {
  created: ["enqueued", "failed"],
  enqueued: ["processing", "failed"],
  processing: ["enqueued", "success", "failed"],
  success: ["failed"],
  failed: [],
};

/** Statuses whose charge is still held: the message may yet be sent. */
export const HELD_STATUSES: readonly MessageStatus[] = ["created", "enqueued", "processing"];

export function isMessageStatus(value: unknown): value is MessageStatus {
  return typeof value === "string" && (messageStatuses as readonly string[]).includes(value);
}

export function allowedTransitions(from: MessageStatus): readonly MessageStatus[] {
  return TRANSITIONS[from];
}

export function canTransition(from: MessageStatus, to: MessageStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** A final status has no move out of it. */
export function isFinalStatus(status: MessageStatus): boolean {
  return TRANSITIONS[status].length === 0;
}

/** Refuses a move the state machine does not allow. */
export function assertTransition(from: MessageStatus, to: MessageStatus): void {
  if (!canTransition(from, to)) throw new Error(`a message cannot move from ${from} to ${to}`);
}

/** Each status as an SQL string literal, for statements that name it in their text. */
export const SQL_STATUS: Readonly<Record<MessageStatus, string>> = {
  created: `'${MessageStatus.created}'`,
  enqueued: `'${MessageStatus.enqueued}'`,
  processing: `'${MessageStatus.processing}'`,
  success: `'${MessageStatus.success}'`,
  failed: `'${MessageStatus.failed}'`,
};

/** A list of statuses as SQL string literals, for `IN (…)`. */
export function statusList(statuses: readonly MessageStatus[]): string {
  return `(${statuses.map((status) => SQL_STATUS[status]).join(", ")})`;
}
