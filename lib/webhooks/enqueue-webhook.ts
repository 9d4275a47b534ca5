// A status change of a message with a webhook_url creates one WebhookDelivery row, in the
// transaction of the change (so an event is never lost nor doubled: unique messageId + eventType).
// The payload is fixed at that moment: { type, timestamp, data: <Sms object as GET /api/v1/sms/{id}> }.
// The same change is a message.status event for each of the account's endpoints that subscribe to
// it (unique endpointId + eventKey), whether or not the send named a webhook_url.
import { timeOrderedUuid } from "@/lib/model/ids";
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { inList } from "@/lib/db/batch-lists";
import { serializeSms } from "@/lib/messages/serialize-sms";
import { parseMessageRow, type Message } from "@/lib/db/stores/shared/rows";
import { cachedEndpoints, eventPayload, queueEndpointDeliveries, refreshEndpointCache } from "./account-events";

export type WebhookEventType = "message.success" | "message.failed" | "message.delivered";

function webhookPayload(message: Message, type: WebhookEventType, at: Date): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data: serializeSms(message) });
}

export async function enqueueWebhook(tx: SqlExecutor, message: Message, type: WebhookEventType, at: Date): Promise<void> {
  await refreshEndpointCache();
  const endpoints = cachedEndpoints(message.accountId, "message.status");
  if (endpoints.length > 0) {
    const payload = eventPayload("message.status", serializeSms(message), at);
    await queueEndpointDeliveries(tx, endpoints, "message.status", payload, `message.status:${message.id}:${type}`, at);
  }
  if (!message.webhookUrl) return;
  const now = toDbTime(at);
  await tx.run(
    `INSERT INTO "WebhookDelivery" ("id", "accountId", "messageId", "url", "eventType", "payload", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
     VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?) ON CONFLICT ("messageId", "eventType") DO NOTHING`,
    [timeOrderedUuid(), message.accountId, message.id, message.webhookUrl, type, webhookPayload(message, type, at), now, now, now],
  );
}

/** For a batch of changed messages (given by id, each with a webhook_url or status endpoints): reads them back once, as they now are. */
export async function enqueueWebhooks(tx: SqlExecutor, messageIds: string[], type: WebhookEventType, at: Date): Promise<void> {
  if (messageIds.length === 0) return;
  const ids = inList(messageIds);
  const rows = await tx.all(`SELECT * FROM "Message" WHERE "id" IN ${ids.text}`, ids.params);
  for (const row of rows) await enqueueWebhook(tx, parseMessageRow(row), type, at);
}
