// Every HTTP API endpoint: method, path, error shape (spec 7.3), body limit, handler.
import type { ApiRoute } from "./route";
import { handleHealth } from "./system/health";
import { handleMetrics } from "./system/metrics";

export const apiRoutes: ApiRoute[] = [
  { method: "GET", path: "/api/health", errorShape: "kit", handler: handleHealth },
  { method: "GET", path: "/metrics", errorShape: "kit", handler: handleMetrics },
];

/** Paths the production server answers through the lean path instead of Next. */
export function isApiPath(pathname: string): boolean {
  return pathname.startsWith("/api/v1/") || pathname === "/api/v1" || pathname === "/api/health" || pathname === "/metrics";
}
