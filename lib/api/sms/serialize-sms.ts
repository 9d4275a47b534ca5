// Stored messages → the spec's objects. Exports:
//   serializeSms(message: SmsSource): Sms          (spec 2.2; also the webhook payload and dashboard rows)
//   serializeBulkResult(send: AcceptedSend): Generator<string>   (spec 2.3, as JSON text in chunks)
//   type SmsSource: any message record with these fields (a Prisma Message, an AcceptedMessage)
import type { Message } from "@/lib/db/generated/sqlite";
import type { AcceptedMessage, AcceptedSend } from "@/lib/messages/accept-messages";
import { smsSchema, type BulkSmsItem, type BulkSmsResult, type Sms } from "./sms-schemas";

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

/** Items per chunk of the bulk result's JSON: about 150 KB of text. */
const ITEMS_PER_CHUNK = 1024;

/**
 * The bulk send result as JSON text in chunks, items in request order. Items differ only in id,
 * recipient and carrier, so the rest of an item's JSON is made once per carrier; its fields are
 * bulkSmsItemSchema's (checked by the compiler, and by the API tests against the strict schema).
 * A zod parse of 100,000 items cost more than the rest of the answer.
 */
export function* serializeBulkResult(send: AcceptedSend): Generator<string> {
  const { total, charge, currency }: Omit<BulkSmsResult, "items"> = { total: send.messages.length, charge: Number(send.charge), currency: send.currency };
  yield `{"total":${total},"charge":${charge},"currency":${JSON.stringify(currency)},"items":[`;
  const tails = new Map<string, string>();
  const tailOf = (message: AcceptedMessage) => {
    const item: Omit<BulkSmsItem, "id" | "to"> = { status: message.status, operator: message.operator, charge: Number(message.charge), charge_currency: message.currency };
    return JSON.stringify(item).slice(1); // without its "{"
  };
  for (let start = 0; start < send.messages.length; start += ITEMS_PER_CHUNK) {
    const items = send.messages.slice(start, start + ITEMS_PER_CHUNK).map((message) => {
      let tail = tails.get(message.operator);
      if (!tail) tails.set(message.operator, (tail = tailOf(message)));
      return `{"id":${JSON.stringify(message.id)},"to":${JSON.stringify(message.to)},${tail}`;
    });
    yield (start === 0 ? "" : ",") + items.join(",");
  }
  yield "]}";
}
