import type { AcceptedMessage, AcceptedSend } from "@/lib/messages/accept-messages";
import type { BulkSmsItem, BulkSmsResult } from "./sms-schemas";

/** Items per chunk of the bulk result's JSON: about 150 KB of text. */
const ITEMS_PER_CHUNK = 1024;

/**
 * The bulk send result as JSON text in chunks, items in request order. Items differ only in id,
 * recipient and carrier, so the rest of an item's JSON is made once per carrier; its fields are
 * bulkSmsItemSchema's (checked by the compiler, and by the API tests against the strict schema).
 * A zod parse of 100,000 items cost more than the rest of the answer.
 */
export function* serializeBulkResult(send: AcceptedSend): Generator<string> {
  const { bulk_id, total, charge, currency }: Omit<BulkSmsResult, "items"> = {
    bulk_id: send.bulkSendId!,
    total: send.messages.length,
    charge: Number(send.charge),
    currency: send.currency,
  };
  yield `{"bulk_id":${JSON.stringify(bulk_id)},"total":${total},"charge":${charge},"currency":${JSON.stringify(currency)},"items":[`;
  const tails = new Map<string, string>();
  const tailOf = (message: AcceptedMessage) => {
    const item: Omit<BulkSmsItem, "id" | "to"> = {
      status: message.status,
      operator: message.operator,
      charge: Number(message.charge),
      charge_currency: message.currency,
    };
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
  // Only a send that skipped opted-out recipients carries the field.
  yield send.optedOut.length > 0 ? `],"opted_out":${JSON.stringify(send.optedOut)}}` : "]}";
}
