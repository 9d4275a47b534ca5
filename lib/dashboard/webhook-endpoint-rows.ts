// The Webhooks page's endpoints with their recent deliveries as JSON (dates as ISO strings): what the
// page renders first and what GET /api/dashboard/webhooks answers to its polling.
import { listEndpointDeliveries, listWebhookEndpoints } from "@/lib/webhooks/webhook-endpoints";

export type EndpointRow = {
  id: string;
  url: string;
  events: string[];
  createdAt: string;
  previousSecretExpiresAt: string | null;
  deliveries: {
    id: string;
    eventType: string;
    status: string;
    createdAt: string;
    attempts: { statusCode: number | null; error: string | null; latencyMs: number; attemptedAt: string }[];
  }[];
};

export async function listEndpointRows(accountId: string): Promise<EndpointRow[]> {
  const endpoints = await listWebhookEndpoints(accountId);
  return Promise.all(
    endpoints.map(async (endpoint) => ({
      id: endpoint.id,
      url: endpoint.url,
      events: endpoint.events,
      createdAt: endpoint.createdAt.toISOString(),
      previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
      deliveries: (await listEndpointDeliveries(accountId, endpoint.id)).map((delivery) => ({
        ...delivery,
        createdAt: delivery.createdAt.toISOString(),
        attempts: delivery.attempts.map((attempt) => ({ ...attempt, attemptedAt: attempt.attemptedAt.toISOString() })),
      })),
    })),
  );
}
