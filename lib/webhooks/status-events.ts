// message.status for the moves no carrier answers: a message accepted (created, or enqueued), a
// scheduled one whose time came (enqueued), one claimed by a dispatcher (processing), and one back in
// the queue (enqueued: a retry, a lease that ran out, a graceful stop). The carrier's answers and
// receipts (success, delivered, failed) are queued with the per-send webhooks (./enqueue-webhook.ts).
// Each change is its own event: a retried message moves to processing and back more than once.
// Every caller asks the per-process endpoint cache first (decision 0016), so an account with no
// message.status endpoint costs no query and no row.
import { timeOrderedUuid } from "@/lib/model/ids";
import type { SqlExecutor } from "@/lib/db/sql";
import { inList } from "@/lib/db/batch-lists";
import { serializeSms, type SmsSource } from "@/lib/messages/serialize-sms";
import { parseMessageRow } from "@/lib/db/stores/shared/rows";
import {
  anyStatusEndpoints,
  cachedEndpoints,
  eventPayload,
  insertEndpointDeliveries,
  refreshEndpointCache,
  type EndpointDelivery,
} from "./account-events";

/** A message of an account whose status just changed, as it is after the change. */
export type StatusChange = { accountId: string; message: SmsSource };

const READ_CHUNK = 500;

/** Whether any account has an endpoint subscribed to message.status: when not, a change need not even say which messages it moved. */
export async function statusEventsWanted(): Promise<boolean> {
  await refreshEndpointCache();
  return anyStatusEndpoints();
}

/**
 * Queues one message.status delivery per subscribed endpoint for each change, through `executor`
 * (the change's transaction, where there is one). Changes of accounts without such endpoints are skipped.
 */
export async function queueStatusChanges(executor: SqlExecutor, changes: readonly StatusChange[], at: Date): Promise<number> {
  await refreshEndpointCache();
  const deliveries: EndpointDelivery[] = [];
  for (const { accountId, message } of changes) {
    const endpoints = cachedEndpoints(accountId, "message.status");
    if (endpoints.length === 0) continue;
    const payload = eventPayload("message.status", serializeSms(message), at);
    const eventKey = `message.status:${message.id}:${message.status}:${timeOrderedUuid()}`;
    for (const endpoint of endpoints) deliveries.push({ endpoint, eventKey, payload });
  }
  return insertEndpointDeliveries(executor, "message.status", deliveries, at);
}

/** Reads back the changed messages (by id) of accounts with message.status endpoints, and queues their events. */
export async function queueStatusChangesOf(
  executor: SqlExecutor,
  changed: readonly { id: string; accountId: string }[],
  at: Date,
): Promise<number> {
  await refreshEndpointCache();
  const wanted = changed.filter((row) => cachedEndpoints(row.accountId, "message.status").length > 0);
  let queued = 0;
  for (let offset = 0; offset < wanted.length; offset += READ_CHUNK) {
    const ids = inList(wanted.slice(offset, offset + READ_CHUNK).map((row) => row.id));
    const rows = await executor.all(`SELECT * FROM "Message" WHERE "id" IN ${ids.text}`, ids.params);
    const changes = rows.map(parseMessageRow).map((message) => ({ accountId: message.accountId, message }));
    queued += await queueStatusChanges(executor, changes, at);
  }
  return queued;
}
