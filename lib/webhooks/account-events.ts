// Account events: what an account's webhook endpoints subscribe to, and emitAccountEvent, which
// queues one WebhookDelivery per subscribed endpoint (the sender, signing, retries, attempt log and
// redelivery are those of per-send webhooks). Payloads follow Standard Webhooks:
// { type, timestamp, data }. docs/api.md ("Event catalogue") describes each data object.
//
// The send and dispatch hot paths ask "does this account have endpoints?" for every message, so the
// answer comes from a per-process cache of every enabled endpoint (one query per ENDPOINT_CACHE_TTL_MS,
// dropped at once when this process changes an endpoint): an account without endpoints costs no
// query (docs/decisions/0016-account-endpoint-cache.md).
import { timeOrderedUuid } from "@/lib/model/ids";
import { parseId, parseRows } from "@/lib/db/stores/shared/rows";
import { sql } from "@/lib/db/client";
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { insertRows, type SharedValues } from "@/lib/db/insert-rows";
import type { Sms } from "@/lib/messages/serialize-sms";

export const ACCOUNT_EVENT_TYPES = ["message.status", "message.received", "opt_out.changed", "balance.low"] as const;
export type AccountEventType = (typeof ACCOUNT_EVENT_TYPES)[number];

/** message.status: the message as GET /api/v1/sms/{id} shows it after the change. */
export type MessageStatusEventData = Sms;
/** message.received: an inbound message, as GET /api/v1/inbound/{id} shows it. */
export type MessageReceivedEventData = {
  id: string;
  from: string;
  to: string;
  message: string;
  operator: string | null;
  received_at: string;
  encoding: string;
  segments: number;
  /** False when some parts never came within the reassembly timeout. */
  complete: boolean;
};
/** opt_out.changed: a number added to or removed from the account's opt-out list. */
export type OptOutChangedEventData = {
  number: string;
  opted_out: boolean;
  /** Who or what made the change: "key:<id>" (an API key), "user:<id>" (a dashboard member), "keyword:<KEYWORD>" (an inbound keyword). */
  source: string;
  changed_at: string;
};
/** balance.low: the available balance went below the account's threshold (amounts in ten-thousandths). */
export type BalanceLowEventData = { balance: string; threshold: string; currency: string };

export type AccountEventData = {
  "message.status": MessageStatusEventData;
  "message.received": MessageReceivedEventData;
  "opt_out.changed": OptOutChangedEventData;
  "balance.low": BalanceLowEventData;
};

/** "test" is the dashboard's "send test event": delivered to one endpoint whatever it subscribes to. */
export type DeliveredEventType = AccountEventType | "test";

export type CachedEndpoint = { id: string; accountId: string; url: string; events: ReadonlySet<string> };

export const ENDPOINT_CACHE_TTL_MS = 5_000;

let cache: { byAccount: Map<string, CachedEndpoint[]>; thresholds: Set<string>; anyStatus: boolean; loadedAt: number } | null = null;
let loading: Promise<void> | null = null;

/** Drops the cache, so the next lookup reads the table again (after this process changed an endpoint or a threshold). */
export function invalidateEndpointCache(): void {
  cache = null;
}

async function load(): Promise<void> {
  const rows = parseRows(await sql().all(`SELECT "id", "accountId", "url", "events" FROM "WebhookEndpoint" WHERE "disabledAt" IS NULL`), {
    id: "text",
    accountId: "text",
    url: "text",
    events: "text",
  });
  const thresholds = (await sql().all(`SELECT "id" FROM "Account" WHERE "lowBalanceThreshold" IS NOT NULL`)).map(parseId);
  const byAccount = new Map<string, CachedEndpoint[]>();
  for (const row of rows) {
    const list = byAccount.get(row.accountId) ?? [];
    list.push({ id: row.id, accountId: row.accountId, url: row.url, events: new Set(parseEvents(row.events)) });
    byAccount.set(row.accountId, list);
  }
  const anyStatus = [...byAccount.values()].some((list) => list.some((endpoint) => endpoint.events.has("message.status")));
  cache = { byAccount, thresholds: new Set(thresholds), anyStatus, loadedAt: Date.now() };
}

/** Makes the cache fresh (a query at most once per TTL per process); later sync lookups read it. */
export async function refreshEndpointCache(): Promise<void> {
  if (cache && Date.now() - cache.loadedAt < ENDPOINT_CACHE_TTL_MS) return;
  loading ??= load().finally(() => (loading = null));
  await loading;
}

/** An account's enabled endpoints subscribed to `type`, as of the last refresh (none before the first). */
export function cachedEndpoints(accountId: string, type: AccountEventType): CachedEndpoint[] {
  return (cache?.byAccount.get(accountId) ?? []).filter((endpoint) => endpoint.events.has(type));
}

/** Whether the account's message status changes are delivered to endpoints (cache as of the last refresh). */
export function hasStatusEndpoints(accountId: string): boolean {
  return cachedEndpoints(accountId, "message.status").length > 0;
}

/** Whether any account's message status changes are delivered to endpoints (cache as of the last refresh). */
export function anyStatusEndpoints(): boolean {
  return cache?.anyStatus ?? false;
}

/** Whether the account has a low-balance threshold (cache as of the last refresh). */
export function hasLowBalanceThreshold(accountId: string): boolean {
  return cache?.thresholds.has(accountId) ?? false;
}

export function parseEvents(text: string): AccountEventType[] {
  return text.split(",").filter((type): type is AccountEventType => (ACCOUNT_EVENT_TYPES as readonly string[]).includes(type));
}

export function eventPayload(type: DeliveredEventType, data: unknown, at: Date): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/** One event for one endpoint; `eventKey` is the event's identity, so a repeat of it to the endpoint is a no-op. */
export type EndpointDelivery = { endpoint: Pick<CachedEndpoint, "id" | "accountId" | "url">; eventKey: string; payload: string };

const DELIVERY_COLUMNS = ["id", "accountId", "endpointId", "eventKey", "url", "payload"] as const;

/** The columns every new WebhookDelivery row of an event type shares: pending, due now. */
export function pendingDeliveryValues(type: string, at: Date): SharedValues {
  const now = toDbTime(at);
  return {
    columns: ["eventType", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt"],
    values: [type, "pending", 0, now, now, now],
  };
}

/** Queues deliveries of one event type in multi-row inserts, leaving repeats out; returns how many were queued. */
export async function insertEndpointDeliveries(
  executor: SqlExecutor,
  type: DeliveredEventType,
  deliveries: readonly EndpointDelivery[],
  at: Date,
): Promise<number> {
  if (deliveries.length === 0) return 0;
  const rows = deliveries.map(({ endpoint, eventKey, payload }) => [
    timeOrderedUuid(),
    endpoint.accountId,
    endpoint.id,
    eventKey,
    endpoint.url,
    payload,
  ]);
  return insertRows(executor, "WebhookDelivery", DELIVERY_COLUMNS, rows, pendingDeliveryValues(type, at), { ignoreConflicts: true });
}

/** Queues one delivery of the same event to each endpoint in `endpoints`. */
export function queueEndpointDeliveries(
  executor: SqlExecutor,
  endpoints: Pick<CachedEndpoint, "id" | "accountId" | "url">[],
  type: DeliveredEventType,
  payload: string,
  eventKey: string,
  at: Date,
): Promise<number> {
  return insertEndpointDeliveries(
    executor,
    type,
    endpoints.map((endpoint) => ({ endpoint, eventKey, payload })),
    at,
  );
}

/**
 * Delivers an account event to every enabled endpoint of the account subscribed to its type.
 * `executor`: the caller's transaction, so the event is queued exactly when the change commits.
 * `eventKey`: the event's identity (e.g. the inbound message's id); a second emit with the same key
 * queues nothing. Returns how many deliveries were queued.
 */
export async function emitAccountEvent<T extends AccountEventType>(
  accountId: string,
  type: T,
  data: AccountEventData[T],
  options: { executor?: SqlExecutor; eventKey?: string; at?: Date } = {},
): Promise<number> {
  await refreshEndpointCache();
  const endpoints = cachedEndpoints(accountId, type);
  if (endpoints.length === 0) return 0;
  const at = options.at ?? new Date();
  return queueEndpointDeliveries(
    options.executor ?? sql(),
    endpoints,
    type,
    eventPayload(type, data, at),
    `${type}:${options.eventKey ?? timeOrderedUuid()}`,
    at,
  );
}
