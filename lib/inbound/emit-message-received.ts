// message.received for the account's webhook endpoints: each routed inbound message once it is stored,
// with the fields GET /api/v1/inbound/{id} shows. The event key is the message's id, so a listener
// run twice queues one delivery per endpoint.
import { emitAccountEvent } from "@/lib/webhooks/account-events";
import type { StoredInboundMessage } from "./inbound-listeners";

export async function emitMessageReceived(message: StoredInboundMessage): Promise<void> {
  if (!message.accountId) return;
  await emitAccountEvent(
    message.accountId,
    "message.received",
    {
      id: message.id,
      from: message.from,
      to: message.to,
      message: message.body,
      operator: message.operator,
      received_at: message.receivedAt.toISOString(),
      encoding: message.encoding,
      segments: message.segments,
      complete: message.complete,
    },
    { eventKey: message.id, at: message.receivedAt },
  );
}
