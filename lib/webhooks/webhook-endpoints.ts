// An account's webhook endpoints: created with a URL (vetted by the SSRF check) and the event types
// they receive, each with its own Standard Webhooks secret ("whsec_", shown once, kept encrypted).
// Deleting disables the endpoint (its delivery log stays readable); rotating keeps the old secret
// signing beside the new one for ROTATION_GRACE_MS, so receivers can switch without losing events.
import crypto from "node:crypto";
import { db, sql } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { decryptSecret, encryptSecret } from "@/lib/crypto";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { timeOrderedUuid } from "@/lib/model/ids";
import { checkWebhookUrl } from "./check-webhook-url";
import {
  ACCOUNT_EVENT_TYPES,
  eventPayload,
  invalidateEndpointCache,
  parseEvents,
  queueEndpointDeliveries,
  type AccountEventType,
} from "./account-events";
import { MAX_WEBHOOK_ENDPOINTS } from "./limits";

export const ROTATION_GRACE_MS = 24 * 3600_000;

export type WebhookEndpointView = {
  id: string;
  url: string;
  events: AccountEventType[];
  createdAt: Date;
  previousSecretExpiresAt: Date | null;
};

function generateSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString("base64")}`;
}

function view(row: {
  id: string;
  url: string;
  events: string;
  createdAt: Date;
  previousSecretExpiresAt: Date | null;
}): WebhookEndpointView {
  const graceLeft = row.previousSecretExpiresAt && row.previousSecretExpiresAt > new Date() ? row.previousSecretExpiresAt : null;
  return { id: row.id, url: row.url, events: parseEvents(row.events), createdAt: row.createdAt, previousSecretExpiresAt: graceLeft };
}

/** The event types an endpoint asks for: at least one, each a known type; duplicates collapse. */
function parseEventTypes(events: string[]): AccountEventType[] {
  if (events.length === 0) throw AppError.validation([{ field: "events", description: "must name at least one event type" }]);
  events.forEach((type, index) => {
    if (!(ACCOUNT_EVENT_TYPES as readonly string[]).includes(type))
      throw AppError.validation([{ field: `events[${index}]`, description: `must be one of ${ACCOUNT_EVENT_TYPES.join(", ")}` }]);
  });
  return [...new Set(events)] as AccountEventType[];
}

export async function createWebhookEndpoint(input: {
  accountId: string;
  url: string;
  events: string[];
  actor: string;
}): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const events = parseEventTypes(input.events);
  const { url } = await checkWebhookUrl(input.url, "url");
  const count = await db().webhookEndpoint.count({ where: { accountId: input.accountId, disabledAt: null } });
  if (count >= MAX_WEBHOOK_ENDPOINTS)
    throw new AppError("CONFLICT", "Too many webhook endpoints", {
      description: `An account holds at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`,
    });
  const secret = generateSecret();
  const row = await db().webhookEndpoint.create({
    data: {
      id: timeOrderedUuid(),
      accountId: input.accountId,
      url: url.toString(),
      events: events.join(","),
      secretEnc: encryptSecret(secret),
    },
  });
  invalidateEndpointCache();
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "webhook_endpoint.created",
    targetType: "webhook_endpoint",
    targetId: row.id,
    data: { url: row.url, events },
  });
  return { endpoint: view(row), secret };
}

export async function listWebhookEndpoints(accountId: string): Promise<WebhookEndpointView[]> {
  const rows = await db().webhookEndpoint.findMany({ where: { accountId, disabledAt: null }, orderBy: { createdAt: "desc" } });
  return rows.map(view);
}

async function findEnabled(accountId: string, id: string) {
  const row = await db().webhookEndpoint.findFirst({ where: { id, accountId, disabledAt: null } });
  if (!row) throw AppError.notFound("Webhook endpoint");
  return row;
}

/** Disables the endpoint: nothing more is delivered to it, pending deliveries included. */
export async function deleteWebhookEndpoint(input: { accountId: string; id: string; actor: string }): Promise<void> {
  const changed = await db().webhookEndpoint.updateMany({
    where: { id: input.id, accountId: input.accountId, disabledAt: null },
    data: { disabledAt: new Date() },
  });
  if (changed.count === 0) throw AppError.notFound("Webhook endpoint");
  invalidateEndpointCache();
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "webhook_endpoint.deleted",
    targetType: "webhook_endpoint",
    targetId: input.id,
  });
}

/** A new secret, returned once; the current one keeps signing beside it for ROTATION_GRACE_MS. */
export async function rotateWebhookEndpointSecret(input: {
  accountId: string;
  id: string;
  actor: string;
}): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const current = await findEnabled(input.accountId, input.id);
  const secret = generateSecret();
  const row = await db().webhookEndpoint.update({
    where: { id: current.id },
    data: {
      secretEnc: encryptSecret(secret),
      previousSecretEnc: current.secretEnc,
      previousSecretExpiresAt: new Date(Date.now() + ROTATION_GRACE_MS),
    },
  });
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "webhook_endpoint.rotated",
    targetType: "webhook_endpoint",
    targetId: input.id,
  });
  return { endpoint: view(row), secret };
}

/**
 * The secrets an endpoint's deliveries are signed with: the current one, then the previous one while
 * its grace period lasts. A disabled endpoint is refused (an AppError), which abandons the delivery.
 */
export async function endpointSigningSecrets(endpointId: string, now = new Date()): Promise<string[]> {
  const row = await db().webhookEndpoint.findUnique({
    where: { id: endpointId },
    select: { secretEnc: true, previousSecretEnc: true, previousSecretExpiresAt: true, disabledAt: true },
  });
  if (!row || row.disabledAt) throw AppError.validation([{ field: "endpoint", description: "the webhook endpoint was deleted" }]);
  const secrets = [decryptSecret(row.secretEnc)];
  if (row.previousSecretEnc && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now)
    secrets.push(decryptSecret(row.previousSecretEnc));
  return secrets;
}

/** The dashboard's "send test event": one "test" delivery to this endpoint, whatever it subscribes to. */
export async function sendTestEvent(input: { accountId: string; id: string }): Promise<string> {
  const endpoint = await findEnabled(input.accountId, input.id);
  const at = new Date();
  const key = timeOrderedUuid();
  const payload = eventPayload("test", { endpoint_id: endpoint.id, message: "A test event from Tumira" }, at);
  await queueEndpointDeliveries(sql(), [endpoint], "test", payload, `test:${key}`, at);
  const delivery = await db().webhookDelivery.findFirstOrThrow({
    where: { endpointId: endpoint.id, eventKey: `test:${key}` },
    select: { id: true },
  });
  return delivery.id;
}

export type EndpointDelivery = {
  id: string;
  eventType: string;
  status: string;
  createdAt: Date;
  attempts: { statusCode: number | null; error: string | null; latencyMs: number; attemptedAt: Date }[];
};

/** An endpoint's most recent deliveries, each with every attempt. */
export async function listEndpointDeliveries(accountId: string, endpointId: string, limit = 20): Promise<EndpointDelivery[]> {
  const rows = await db().webhookDelivery.findMany({
    where: { accountId, endpointId },
    orderBy: { createdAt: "desc" },
    take: limit,
    include: { attemptLog: { orderBy: { id: "asc" } } },
  });
  return rows.map((row) => ({
    id: row.id,
    eventType: row.eventType,
    status: row.status,
    createdAt: row.createdAt,
    attempts: row.attemptLog.map(({ statusCode, error, latencyMs, attemptedAt }) => ({ statusCode, error, latencyMs, attemptedAt })),
  }));
}
