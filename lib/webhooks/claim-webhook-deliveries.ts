// Due webhook deliveries, leased to one sender at a time (the same claim pattern as messages; each
// engine's webhook store, lib/db/stores).
import { getStores } from "@/lib/db/stores";
import type { ClaimedWebhookDelivery } from "@/lib/model/queue";

export type WebhookDeliveryRow = ClaimedWebhookDelivery;

export function claimWebhookDeliveries(limit: number, leaseMs: number, now = new Date()): Promise<WebhookDeliveryRow[]> {
  return getStores().webhooks.claim({ limit, leaseMs, now });
}
