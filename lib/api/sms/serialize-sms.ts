// Stored messages → the spec's objects. Exports:
//   serializeSms(message: SmsSource): Sms          (spec 2.2; also the webhook payload and dashboard rows)
//   serializeBulkResult(send: AcceptedSend): BulkSmsResult   (spec 2.3)
//   type SmsSource: any message record with these fields (a Prisma Message, an AcceptedMessage)
import type { Message } from "@/lib/db/generated/sqlite";
import type { AcceptedSend } from "@/lib/messages/accept-messages";
import { bulkSmsResultSchema, smsSchema, type BulkSmsResult, type Sms } from "./sms-schemas";

export type SmsSource = Pick<
  Message,
  "id" | "to" | "body" | "senderId" | "operator" | "charge" | "currency" | "operatorResponse" | "receivedAt" | "status" | "createdAt" | "deliveredAt"
>;

export function serializeSms(message: SmsSource): Sms {
  return smsSchema.parse({
    id: message.id,
    to: message.to,
    message: message.body,
    sender_id: message.senderId,
    operator: message.operator,
    charge: message.charge.toString(),
    charge_currency: message.currency,
    operator_response: message.operatorResponse,
    received_at: message.receivedAt.toISOString(),
    status: message.status,
    created_at: message.createdAt.toISOString(),
    delivered_at: message.deliveredAt ? message.deliveredAt.toISOString() : null,
  });
}

export function serializeBulkResult(send: AcceptedSend): BulkSmsResult {
  return bulkSmsResultSchema.parse({
    total: send.messages.length,
    charge: Number(send.charge),
    currency: send.currency,
    items: send.messages.map((message) => ({
      id: message.id,
      to: message.to,
      status: message.status,
      operator: message.operator,
      charge: Number(message.charge),
      charge_currency: message.currency,
    })),
  });
}
