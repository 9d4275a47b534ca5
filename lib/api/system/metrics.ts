import crypto from "node:crypto";
import { getEnv } from "@/lib/env";
import { metrics } from "@/lib/metrics";
import { readMetrics } from "@/lib/metrics-cluster";
import { AppError } from "@/lib/errors";
import type { ApiContext } from "@/lib/api/route";
import { ApiResponse } from "@/lib/api/respond";

/**
 * GET /metrics in Prometheus text format, behind `Authorization: Bearer $METRICS_TOKEN` when set.
 * In production with no METRICS_TOKEN it is refused: metrics name accounts' traffic and the carrier
 * links, which are not for anyone who can reach the port. Outside production it is open.
 * With HTTP_PROCESSES > 1 the answer covers every process of the cluster (lib/metrics-cluster.ts).
 */
export async function handleMetrics({ headers }: ApiContext): Promise<ApiResponse> {
  const { METRICS_TOKEN: token, NODE_ENV } = getEnv();
  if (!token && NODE_ENV === "production") {
    throw new AppError("FORBIDDEN", "Forbidden", { description: "Metrics are not served in production until METRICS_TOKEN is set" });
  }
  if (token) {
    const sent = Buffer.from(headers.get("authorization") ?? "");
    const expected = Buffer.from(`Bearer ${token}`);
    if (sent.length !== expected.length || !crypto.timingSafeEqual(sent, expected)) {
      throw new AppError("UNAUTHORIZED", "Unauthorized", { description: "A valid metrics token is required" });
    }
  }
  return new ApiResponse(200, await readMetrics(), { "content-type": metrics().registry.contentType });
}
