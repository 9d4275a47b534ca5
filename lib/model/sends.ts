// A send on its way into the store and what the store accepted of it: the shapes the message domain
// and the message stores share.
import type { AppError } from "@/lib/errors";
import { MessageStatus } from "./message-status";
import type { Operator } from "./operators";

export type Encoding = "gsm7" | "ucs2";
export const priorities = ["normal", "high"] as const;
export type Priority = (typeof priorities)[number];

/** When and how long a send may wait: its priority, scheduled time and validity in seconds. */
export type DeliveryControl = { priority: Priority; sendAt: Date | null; validityPeriod: number | null };
export type Recipient = { to: string; operator: Operator };

/**
 * The Idempotency-Key a send is made under: its record is written in the transaction that writes the
 * send, so it exists exactly when the send does. `response` gives the answer to replay, made from
 * what was accepted, inside that transaction.
 */
export type IdempotencyRecord = {
  key: string;
  requestHash: string;
  /** How long the record is kept, from the send's commit. */
  keptForMs: number;
  response: (accepted: AcceptedSend) => { status: number; body: string };
};

/** A send validated and ready to be priced and written. */
export type PreparedSend = {
  accountId: string;
  senderName: string;
  body: string;
  encoding: Encoding;
  segments: number;
  recipients: Recipient[];
  webhookUrl: string | null;
  actor: string;
  apiKeyId: string | null;
  userId: string | null;
  test: boolean;
  bulk: boolean;
  idempotency?: IdempotencyRecord | null;
  control: DeliveryControl;
  /** The stop confirmation: sent to its recipient although it is on the opt-out list. */
  optOutConfirmation?: boolean;
};

/** What the messages of one accepted send share. */
export type SendFields = {
  bulkSendId: string | null;
  body: string;
  senderId: string;
  currency: string;
  segments: number;
  encoding: Encoding;
  webhookUrl: string | null;
  test: boolean;
  acceptedAt: Date;
  control: DeliveryControl;
  /** Not handed to a carrier by then, the message expires (null: no validity). */
  expiresAt: Date | null;
  /** The charge of one message per carrier (segments × the account's rate). */
  charges: Record<Operator, bigint>;
};

/**
 * A stored message as accepted: the fields serializeSms reads, plus what the dashboard shows. Only
 * its id and recipient are its own, the rest is read from its send: a bulk send keeps 100,000 of
 * these until it has answered, each a few fields instead of a 17-field object (decision 0013).
 */
export class AcceptedMessage {
  constructor(
    readonly id: string,
    readonly to: string,
    readonly operator: Operator,
    private readonly send: SendFields,
    /** Its place in the carrier's queue, in epoch milliseconds (lib/messages/queue-turns.ts). */
    readonly turn: number,
  ) {}

  get bulkSendId(): string | null {
    return this.send.bulkSendId;
  }
  get body(): string {
    return this.send.body;
  }
  get senderId(): string {
    return this.send.senderId;
  }
  get charge(): bigint {
    return this.send.charges[this.operator];
  }
  get currency(): string {
    return this.send.currency;
  }
  get segments(): number {
    return this.send.segments;
  }
  get encoding(): Encoding {
    return this.send.encoding;
  }
  /** A scheduled message waits as created until its time. */
  get status(): typeof MessageStatus.enqueued | typeof MessageStatus.created {
    return this.send.control.sendAt ? MessageStatus.created : MessageStatus.enqueued;
  }
  get priority(): Priority {
    return this.send.control.priority;
  }
  get sendAt(): Date | null {
    return this.send.control.sendAt;
  }
  get validityPeriod(): number | null {
    return this.send.control.validityPeriod;
  }
  get expiresAt(): Date | null {
    return this.send.expiresAt;
  }
  get operatorResponse(): string {
    return "";
  }
  get webhookUrl(): string | null {
    return this.send.webhookUrl;
  }
  get test(): boolean {
    return this.send.test;
  }
  get receivedAt(): Date {
    return this.send.acceptedAt;
  }
  get createdAt(): Date {
    return this.send.acceptedAt;
  }
  get deliveredAt(): null {
    return null;
  }
}

/** A bulk send's recipient that was not sent (nor charged) because it is on the account's opt-out list. */
export type OptedOutRecipient = { index: number; to: string };

export type AcceptedSend = {
  bulkSendId: string | null;
  currency: string;
  charge: bigint;
  messages: AcceptedMessage[];
  /** Recipients of a bulk send left out: on the account's opt-out list. */
  optedOut: OptedOutRecipient[];
};

/**
 * What pricing a send needs of its account. `balance` is the balance as the store read it; pricing
 * takes each accepted live send's charge from it, so later sends of the batch see what is left.
 */
export type SendingAccount = {
  balance: bigint;
  currency: string;
  rates: Record<Operator, bigint>;
  approvedSenders: Set<string>;
  /** Which of the batch's recipients are on the account's opt-out list (read with the account). */
  optedOut: ReadonlySet<string>;
};

/** The domain's rule: a send priced against its account, accepted (its messages) or refused. */
export type PriceSend = (send: PreparedSend, account: SendingAccount, now: Date) => AcceptedSend | AppError;

/**
 * The send's Idempotency-Key is held by another request that committed first (or is committing):
 * nothing of this send was written; its answer is that request's.
 */
export class IdempotencyKeyTakenError extends Error {
  constructor(readonly key: string) {
    super(`Idempotency-Key ${key} is taken`);
  }
}
