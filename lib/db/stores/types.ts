// The stores: what the domains ask of the database, in the domain's terms. Each engine has one
// implementation of each operation (./sqlite, ./postgres); rows are parsed at this edge, so what a
// store returns is typed (booleans, bigint money, Dates) and nobody casts.
import type { AppError } from "@/lib/errors";
import type { MessageStatus } from "@/lib/model/message-status";
import type { AcceptedSend, IdempotencyKeyTakenError, PreparedSend, PriceSend } from "@/lib/model/sends";
import type { ClaimedMessage, ClaimedWebhookDelivery, MessageClaim, QueueState, WebhookClaim } from "@/lib/model/queue";
import type { SqlExecutor } from "@/lib/db/sql";

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
  priority: string;
  sendAt: Date | null;
  validityPeriod: number | null;
};

/**
 * unusable-key: the key is unknown, revoked or expired. not-found: no message of that id in the
 * key's account and mode (test keys see test messages, live keys live ones).
 */
export type MessageReadResult = { kind: "found"; message: StoredSms } | { kind: "unusable-key" } | { kind: "not-found" };

export type SendOutcome = AcceptedSend | AppError | IdempotencyKeyTakenError;

export interface MessageStore {
  /** How many send batches may be written at once: one where the engine has one writer. */
  readonly concurrentSendBatches: number;
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

/** A carrier's acceptance of a claimed message, as the store records it. */
export type CarrierAcceptance = {
  messageId: string;
  operator: string;
  owner: string;
  startedAt: Date;
  response: string;
  carrierMessageIds: string[];
};

/** A part of a message, as a receipt finds it by its carrier's id, with its message's account and webhook URL. */
export type StoredPart = {
  id: string;
  messageId: string;
  status: string;
  carrierMessageId: string;
  /** The carrier's acceptance of the part. */
  createdAt: Date;
  accountId: string;
  webhookUrl: string | null;
};

/** A receipt's change of a part still "submitted": delivered, failed, or an intermediate state noted on it. */
export type PartChange = { partId: string; status: "delivered" | "failed" | "submitted"; stat: string; err: string | null };

/** A message whose every part a DELIVRD receipt has now delivered; dispatchedAt: when its carrier acceptance began. */
export type DeliveredMessage = {
  id: string;
  accountId: string;
  operator: string;
  webhookUrl: string | null;
  test: boolean;
  dispatchedAt: Date | null;
};

/**
 * The rest of a batch's work (retries, failures, refunds, events, webhooks), written by the domain
 * in the transaction of the store's change, given what that change did. Null when the batch needs
 * nothing more: the store then writes its change its fastest way.
 */
export type ThenInTransaction<C, T> = ((tx: SqlExecutor, changed: C) => Promise<T>) | null;

export interface DeliveryStore {
  /** Moves due messages of one carrier to processing, leased to the claim's owner. */
  claim(claim: MessageClaim): Promise<ClaimedMessage[]>;
  /** Where a carrier's queue stands, for the turns of new messages (lib/messages/queue-turns.ts). */
  readQueueState(queue: { operator: string; test: boolean; normalTurnsAfter: number }): Promise<QueueState>;
  /**
   * Records carrier acceptances: an answer lands only while its owner holds the message's lease, and
   * only the messages that landed get their parts. Returns the ids that landed and what `then` gave.
   */
  recordAcceptances<T>(
    acceptances: CarrierAcceptance[],
    now: Date,
    then: ThenInTransaction<string[], T>,
  ): Promise<{ landed: string[]; then: T | null }>;
  /** The parts of this carrier with these carrier ids (a carrier may reuse an id: every match). */
  findParts(operator: string, carrierMessageIds: string[]): Promise<StoredPart[]>;
  /**
   * Records receipts' changes of parts: a part changes only while it is still "submitted" (a receipt
   * recorded meanwhile elsewhere wins), and a message is delivered once every one of its parts is,
   * however many parts it has and whichever processes record their receipts at once. Returns the
   * messages delivered and what `then` gave.
   */
  recordPartChanges<T>(
    changes: PartChange[],
    now: Date,
    then: ThenInTransaction<DeliveredMessage[], T>,
  ): Promise<{ delivered: DeliveredMessage[]; then: T | null }>;
}

export interface WebhookStore {
  /** Leases due webhook deliveries to this sender. */
  claim(claim: WebhookClaim): Promise<ClaimedWebhookDelivery[]>;
}

export interface KeyStore {
  /**
   * The ids among keyIds whose keys no longer authenticate (revoked, expired or gone), read through
   * executor. `holdUntilCommit` (in a transaction that uses the keys): a revoke that commits while
   * the transaction runs waits for it, so the transaction cannot commit after a revoke it did not see.
   */
  findUnusable(executor: SqlExecutor, keyIds: readonly string[], now: Date, options?: { holdUntilCommit?: boolean }): Promise<Set<string>>;
}

export type Stores = { messages: MessageStore; delivery: DeliveryStore; webhooks: WebhookStore; keys: KeyStore };
