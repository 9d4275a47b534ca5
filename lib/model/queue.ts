// What the queues hand out: messages claimed for dispatch and webhook deliveries claimed for sending.

/** What the dispatcher needs of a claimed message: the submit, the attempt's description, the refund and the webhook. */
export type ClaimedMessage = {
  id: string;
  accountId: string;
  to: string;
  body: string;
  senderId: string;
  operator: string;
  test: boolean;
  attempts: number;
  webhookUrl: string | null;
  operatorResponse: string;
  /** End of the validity: the carrier gets what is left of it, and nothing once it has passed. */
  expiresAt: Date | null;
};

/** Up to `limit` due messages of one carrier (live or test), leased to `owner` for `leaseMs`. */
export type MessageClaim = { owner: string; operator: string; test: boolean; limit: number; leaseMs: number; now?: Date };

export type ClaimedWebhookDelivery = {
  id: string;
  accountId: string;
  /** The message of a per-send webhook; null for a delivery to one of the account's endpoints. */
  messageId: string | null;
  endpointId: string | null;
  url: string;
  eventType: string;
  payload: string;
  attempts: number;
};

/** Up to `limit` due webhook deliveries, leased for `leaseMs`. */
export type WebhookClaim = { limit: number; leaseMs: number; now?: Date };

/** A carrier's queue (live or test) as the turns read it: the latest normal turn claimed, and whether any message waits. */
export type QueueState = { servingTurn: number | null; queued: boolean };
