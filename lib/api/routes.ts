// Every HTTP API endpoint: method, path, error shape (spec 7.3), body limit, handler.
import type { ApiRoute } from "./route";
import { json } from "./respond";
import { handleHealth } from "./system/health";
import { handleMetrics } from "./system/metrics";
import { smsRoutes } from "./sms/sms-routes";
import { keyRoutes } from "./keys/key-routes";
import { accountRoutes } from "./accounts/account-routes";
import { optOutRoutes } from "./opt-outs/opt-out-routes";
import { webhookRoutes } from "./webhooks/webhook-routes";
import { inboundRoutes } from "./inbound/inbound-routes";
import { OPENAPI_PATH } from "./openapi/openapi-document";
import { serveOpenApiDocument } from "./openapi/serve-openapi-document";

const PING_BODY = { status: "success", message: "pong" };

export const apiRoutes: ApiRoute[] = [
  { method: "GET", path: "/api/health", errorShape: "kit", handler: handleHealth },
  // Constant JSON through the whole API pipeline, no database: the server's own ceiling (bench/).
  { method: "GET", path: "/api/ping", errorShape: "kit", handler: async () => json(200, PING_BODY) },
  { method: "GET", path: "/metrics", errorShape: "kit", handler: handleMetrics },
  ...smsRoutes,
  ...keyRoutes,
  ...accountRoutes,
  ...optOutRoutes,
  ...webhookRoutes,
  ...inboundRoutes,
  { method: "GET", path: OPENAPI_PATH, errorShape: "kit", handler: serveOpenApiDocument },
];

/** Paths the production server answers through the lean path instead of Next. */
export function isApiPath(pathname: string): boolean {
  return pathname.startsWith("/api/v1/") || pathname === "/api/v1" || isSystemPath(pathname);
}

/** The health check, the ping and the metrics: what every process with HTTP answers, a worker's too. */
export function isSystemPath(pathname: string): boolean {
  return pathname === "/api/health" || pathname === "/api/ping" || pathname === "/metrics";
}
