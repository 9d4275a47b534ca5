// The account webhook endpoint API (docs/api.md, "Webhook endpoints"). Kit error shape. A key
// manages the endpoints of its own account; an id of another account reads as not found. Endpoints
// are live configuration: a test key is refused every route here (the list names where the
// account's events go), and only a key an owner stands behind changes them.
import type { ApiRoute } from "@/lib/api/route";
import { keyActor, withApiKey, type AuthedContext } from "@/lib/api/auth/with-api-key";
import { envelope, type ApiResponse } from "@/lib/api/respond";
import { parseJsonRequest, parseUuid } from "@/lib/api/parse-request";
import { AppError } from "@/lib/errors";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookEndpointSecret,
} from "@/lib/webhooks/webhook-endpoints";
import { createWebhookEndpointRequestSchema, serializeEndpoint, serializeEndpointWithSecret } from "./webhook-schemas";

function endpointId(context: AuthedContext): string {
  const id = parseUuid(context.params.id);
  if (!id) throw AppError.notFound("Webhook endpoint");
  return id;
}

async function createEndpoint(context: AuthedContext): Promise<ApiResponse> {
  const { url, events } = parseJsonRequest(context, createWebhookEndpointRequestSchema);
  const { endpoint, secret } = await createWebhookEndpoint({
    accountId: context.auth.accountId,
    url,
    events,
    actor: keyActor(context.auth),
  });
  return envelope(201, "Webhook endpoint created", serializeEndpointWithSecret(endpoint, secret));
}

async function listEndpoints(context: AuthedContext): Promise<ApiResponse> {
  const endpoints = await listWebhookEndpoints(context.auth.accountId);
  return envelope(200, "", endpoints.map(serializeEndpoint));
}

async function deleteEndpoint(context: AuthedContext): Promise<ApiResponse> {
  await deleteWebhookEndpoint({ accountId: context.auth.accountId, id: endpointId(context), actor: keyActor(context.auth) });
  return envelope(200, "Webhook endpoint deleted");
}

async function rotateEndpoint(context: AuthedContext): Promise<ApiResponse> {
  const { endpoint, secret } = await rotateWebhookEndpointSecret({
    accountId: context.auth.accountId,
    id: endpointId(context),
    actor: keyActor(context.auth),
  });
  return envelope(200, "Webhook endpoint secret rotated", serializeEndpointWithSecret(endpoint, secret));
}

export const webhookRoutes: ApiRoute[] = [
  { method: "POST", path: "/api/v1/webhooks", errorShape: "kit", handler: withApiKey(createEndpoint, { restrictedTo: "owner" }) },
  { method: "GET", path: "/api/v1/webhooks", errorShape: "kit", handler: withApiKey(listEndpoints, { restrictedTo: "live" }) },
  { method: "DELETE", path: "/api/v1/webhooks/:id", errorShape: "kit", handler: withApiKey(deleteEndpoint, { restrictedTo: "owner" }) },
  {
    method: "POST",
    path: "/api/v1/webhooks/:id/rotate",
    errorShape: "kit",
    handler: withApiKey(rotateEndpoint, { restrictedTo: "owner" }),
  },
];
