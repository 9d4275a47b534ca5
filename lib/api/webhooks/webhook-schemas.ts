// Request and response contracts of the webhook endpoint API. Responses are serialised through
// these schemas, so the stored (encrypted) secret can never leak; the plain secret is in the
// create and rotate answers only.
import { z } from "zod";
import { ACCOUNT_EVENT_TYPES } from "@/lib/webhooks/account-events";
import { WEBHOOK_URL_MAX_LENGTH } from "@/lib/webhooks/check-webhook-url";
import type { WebhookEndpointView } from "@/lib/webhooks/webhook-endpoints";

export const createWebhookEndpointRequestSchema = z
  .object({
    url: z.string().max(WEBHOOK_URL_MAX_LENGTH, `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`).describe("Public http(s) URL"),
    events: z
      .array(z.string().describe(`One of ${ACCOUNT_EVENT_TYPES.join(", ")}`))
      .max(ACCOUNT_EVENT_TYPES.length * 2, "lists too many event types")
      .describe("The event types delivered to this endpoint"),
  })
  .meta({ id: "CreateWebhookEndpointRequest" });

export const webhookEndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(ACCOUNT_EVENT_TYPES)),
    created_at: z.iso.datetime({ offset: true }),
    previous_secret_expires_at: z.iso
      .datetime({ offset: true })
      .nullable()
      .describe("Until then, deliveries carry a second signature made with the secret before the last rotation"),
  })
  .meta({ id: "WebhookEndpoint" });

export const webhookEndpointWithSecretSchema = webhookEndpointSchema
  .extend({ secret: z.string().describe("The Standard Webhooks signing secret (whsec_…); returned only in this response") })
  .meta({ id: "WebhookEndpointWithSecret" });

export function serializeEndpoint(endpoint: WebhookEndpointView): z.infer<typeof webhookEndpointSchema> {
  return webhookEndpointSchema.parse({
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    created_at: endpoint.createdAt.toISOString(),
    previous_secret_expires_at: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
  });
}

export function serializeEndpointWithSecret(
  endpoint: WebhookEndpointView,
  secret: string,
): z.infer<typeof webhookEndpointWithSecretSchema> {
  return webhookEndpointWithSecretSchema.parse({ ...serializeEndpoint(endpoint), secret });
}
