// message.received for the account's webhook endpoints: each routed inbound message once it is
// stored, as GET /api/v1/inbound/{id} shows it (./serialize-inbound.ts). The event key is the
// message's id, so a listener run twice queues one delivery per endpoint.
import { emitAccountEvent } from "@/lib/webhooks/account-events";
import type { StoredInboundMessage } from "./inbound-listeners";
import { serializeInbound } from "./serialize-inbound";

export async function emitMessageReceived(message: StoredInboundMessage): Promise<void> {
  if (!message.accountId) return;
  await emitAccountEvent(message.accountId, "message.received", serializeInbound(message), {
    eventKey: message.id,
    at: message.receivedAt,
  });
}
