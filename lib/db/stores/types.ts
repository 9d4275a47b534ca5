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

/** A receipt's change of a one-part message without a webhook (a delivery or an intermediate state). */
/** A message a DELIVRD receipt completed, its test flag and dispatchedAt as the engine returns them. */
export type DeliveredMessage = { id: string; operator: string; test: boolean | number; dispatchedAt: unknown };

export type PlainPartChange = { partId: string; status: "delivered" | "submitted"; stat: string; err: string | null };

/** A transaction's work, written by the domain (retries, failures, refunds, events, webhooks). */
export type InTransaction<T> = (tx: SqlExecutor) => Promise<T>;

export interface DeliveryStore {
  /**
   * In a transaction about to change these messages' parts: holds the messages until COMMIT, in id
   * order, so receipts of two parts of one message recorded at once by two processes are ordered
   * and the second sees the first's part when it checks for completion.
   */
  holdMessages(tx: SqlExecutor, messageIds: string[]): Promise<void>;
  /** Moves due messages of one carrier to processing, leased to the claim's owner. */
  claim(claim: MessageClaim): Promise<ClaimedMessage[]>;
  /** Where a carrier's queue stands, for the turns of new messages (lib/messages/queue-turns.ts). */
  readQueueState(queue: { operator: string; test: boolean; normalTurnsAfter: Date }): Promise<QueueState>;
  /**
   * Records a batch of carrier answers. `acceptances`: the batch when every answer is an acceptance
   * of a message without a webhook, else null. The engine records such a batch its fastest way and
   * returns the ids that landed (an answer lands only while its owner holds the lease); any other
   * batch is `inTransaction`'s, in one transaction.
   */
  recordOutcomes(acceptances: CarrierAcceptance[] | null, now: Date, inTransaction: InTransaction<string[]>): Promise<string[]>;
  /**
   * Records a batch of receipts. `plainChanges(executor)` finds the batch's parts and returns their
   * changes when every one is plain (PlainPartChange), else null; the engine records plain changes
   * its fastest way. Any other batch is `inTransaction`'s. Returns what either gives.
   */
  recordReceipts<T>(
    plainChanges: (executor: SqlExecutor) => Promise<{ changes: PlainPartChange[]; done: (delivered: DeliveredMessage[]) => T } | null>,
    now: Date,
    inTransaction: InTransaction<T>,
  ): Promise<T>;
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
