// What the dashboard's message views receive (JSON from its routes): one schema per shape, so the
// routes serialise through them and nothing unlisted reaches the browser.
import { z } from "zod";
import { smsSchema } from "@/lib/messages/serialize-sms";

const timestamp = z.iso.datetime({ offset: true });

export const messageRowSchema = z.object({
  id: z.uuid(),
  to: z.string(),
  operator: z.string(),
  status: z.string(),
  senderId: z.string(),
  bodyPreview: z.string(),
  segments: z.int(),
  charge: z.string(),
  currency: z.string(),
  test: z.boolean(),
  bulkSendId: z.string().nullable(),
  createdAt: timestamp,
  deliveredAt: timestamp.nullable(),
  /** A scheduled send's time. */
  sendAt: timestamp.nullable(),
  /** No carrier has it, nor may have it: scheduled, or queued and never submitted without an answer. */
  cancellable: z.boolean(),
});

export const messagePageSchema = z.object({ rows: z.array(messageRowSchema), nextCursor: z.string().nullable() });

export const messageDetailSchema = z.object({
  sms: smsSchema.extend({ message: z.string().nullable() }),
  account: z.object({ id: z.uuid(), name: z.string() }),
  bulkSendId: z.string().nullable(),
  encoding: z.string(),
  segments: z.int(),
  test: z.boolean(),
  attempts: z.int(),
  lastError: z.string().nullable(),
  source: z.string(),
  dispatchedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
  /** When a message with a validity period is failed EXPIRED unless a carrier has it by then. */
  expiresAt: timestamp.nullable(),
  /** No carrier has it, nor may have it: scheduled, or queued and never submitted without an answer. */
  cancellable: z.boolean(),
  events: z.array(z.object({ id: z.string(), kind: z.string(), detail: z.string(), createdAt: timestamp })),
  parts: z.array(
    z.object({
      partNumber: z.int(),
      carrierMessageId: z.string(),
      status: z.string(),
      receiptStat: z.string().nullable(),
      receiptError: z.string().nullable(),
      receiptAt: timestamp.nullable(),
    }),
  ),
  ledger: z.array(z.object({ id: z.int(), kind: z.string(), amount: z.string(), balanceAfter: z.string(), createdAt: timestamp })),
  webhooks: z.array(
    z.object({
      id: z.uuid(),
      url: z.string().nullable(),
      eventType: z.string(),
      status: z.string(),
      attempts: z.int(),
      lastStatusCode: z.int().nullable(),
      lastError: z.string().nullable(),
      nextAttemptAt: timestamp,
      attemptLog: z.array(
        z.object({ id: z.int(), statusCode: z.int().nullable(), latencyMs: z.int(), error: z.string().nullable(), attemptedAt: timestamp }),
      ),
    }),
  ),
});

export type MessageRow = z.infer<typeof messageRowSchema>;
export type MessagePage = z.infer<typeof messagePageSchema>;
export type MessageDetail = z.infer<typeof messageDetailSchema>;
