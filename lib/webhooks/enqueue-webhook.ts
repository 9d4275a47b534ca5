// A status change of a message with a webhook_url creates one WebhookDelivery row, in the
// transaction of the change (so an event is never lost nor doubled: unique messageId + eventType).
// The payload is fixed at that moment: { type, timestamp, data: <Sms object as GET /api/v1/sms/{id}> }.
// The same change is a message.status event for each of the account's endpoints that subscribe to
// it (unique endpointId + eventKey), whether or not the send named a webhook_url.
import { timeOrderedUuid } from "@/lib/model/ids";
import type { SqlExecutor } from "@/lib/db/sql";
import { inList } from "@/lib/db/batch-lists";
import { serializeSms } from "@/lib/messages/serialize-sms";
import { parseMessageRow, type Message } from "@/lib/db/stores/shared/rows";
import { insertRows } from "@/lib/db/insert-rows";
import {
  cachedEndpoints,
  eventPayload,
  insertEndpointDeliveries,
  pendingDeliveryValues,
  refreshEndpointCache,
  type EndpointDelivery,
} from "./account-events";

export type WebhookEventType = "message.success" | "message.failed" | "message.delivered";

function webhookPayload(message: Message, type: WebhookEventType, at: Date): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data: serializeSms(message) });
}

const URL_COLUMNS = ["id", "accountId", "messageId", "url", "payload"] as const;

export function enqueueWebhook(tx: SqlExecutor, message: Message, type: WebhookEventType, at: Date): Promise<void> {
  return enqueueWebhooksFor(tx, [message], type, at);
}

/**
 * The events of messages that just changed as `type` says: one row per webhook_url and per
 * subscribed endpoint, in multi-row inserts (a bulk send's cancel is hundreds of messages per
 * transaction). An event already queued (the same change seen twice) is left as it is.
 */
export async function enqueueWebhooksFor(tx: SqlExecutor, messages: readonly Message[], type: WebhookEventType, at: Date): Promise<void> {
  await refreshEndpointCache();
  const urlRows: unknown[][] = [];
  const deliveries: EndpointDelivery[] = [];
  for (const message of messages) {
    const endpoints = cachedEndpoints(message.accountId, "message.status");
    if (endpoints.length > 0) {
      const payload = eventPayload("message.status", serializeSms(message), at);
      const eventKey = `message.status:${message.id}:${type}`;
      for (const endpoint of endpoints) deliveries.push({ endpoint, eventKey, payload });
    }
    if (message.webhookUrl)
      urlRows.push([timeOrderedUuid(), message.accountId, message.id, message.webhookUrl, webhookPayload(message, type, at)]);
  }
  await insertEndpointDeliveries(tx, "message.status", deliveries, at);
  if (urlRows.length > 0)
    await insertRows(tx, "WebhookDelivery", URL_COLUMNS, urlRows, pendingDeliveryValues(type, at), { ignoreConflicts: true });
}

/** For a batch of changed messages (given by id, each with a webhook_url or status endpoints): reads them back once, as they now are. */
export async function enqueueWebhooks(tx: SqlExecutor, messageIds: string[], type: WebhookEventType, at: Date): Promise<void> {
  if (messageIds.length === 0) return;
  const ids = inList(messageIds);
  const rows = await tx.all(`SELECT * FROM "Message" WHERE "id" IN ${ids.text}`, ids.params);
  await enqueueWebhooksFor(tx, rows.map(parseMessageRow), type, at);
}
