// The stores: what the domains ask of the database, in the domain's terms. Each engine has one
// implementation of each operation (./sqlite, ./postgres); rows are parsed at this edge, so what a
// store returns is typed (booleans, bigint money, Dates) and nobody casts.
import type { AppError } from "@/lib/errors";
import type { MessageStatus } from "@/lib/model/message-status";
import type { AcceptedSend, IdempotencyKeyTakenError, PreparedSend, PriceSend } from "@/lib/model/sends";

/** A read of one message by id, on behalf of an API key. */
export type MessageRead = { keyId: string; id: string };

/** A stored message as the API shows it. */
export type StoredSms = {
  id: string;
  to: string;
  body: string;
  senderId: string;
  operator: string;
  charge: bigint;
  currency: string;
  operatorResponse: string;
  receivedAt: Date;
  status: MessageStatus;
  createdAt: Date;
  deliveredAt: Date | null;
};

/**
 * unusable-key: the key is unknown, revoked or expired. not-found: no message of that id in the
 * key's account and mode (test keys see test messages, live keys live ones).
 */
export type MessageReadResult = { kind: "found"; message: StoredSms } | { kind: "unusable-key" } | { kind: "not-found" };

export type SendOutcome = AcceptedSend | AppError | IdempotencyKeyTakenError;

export interface MessageStore {
  /**
   * Writes a batch of sends, each priced by `price` against its account as the store holds it and
   * accepted or refused whole: an accepted send's messages, bulk row, ledger holds and idempotency
   * record are written together; a refused one writes nothing and does not affect the others. A send
   * whose key is no longer usable is refused with the 401 of authentication; one whose
   * Idempotency-Key another request holds, with IdempotencyKeyTakenError.
   */
  commitSends(sends: PreparedSend[], price: PriceSend): Promise<SendOutcome[]>;
  /** Reads messages for API keys, each answered on its own, in the order asked. */
  readMessages(reads: MessageRead[]): Promise<MessageReadResult[]>;
}

export type Stores = { messages: MessageStore };
