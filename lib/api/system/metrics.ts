import crypto from "node:crypto";
import { getEnv } from "@/lib/env";
import { metrics } from "@/lib/metrics";
import { readMetrics } from "@/lib/metrics-cluster";
import { AppError } from "@/lib/errors";
import type { ApiContext } from "@/lib/api/route";
import { ApiResponse } from "@/lib/api/respond";

/**
 * GET /metrics in Prometheus text format, behind `Authorization: Bearer $METRICS_TOKEN` when set.
 * With HTTP_PROCESSES > 1 the answer covers every process of the cluster (lib/metrics-cluster.ts).
 */
export async function handleMetrics({ headers }: ApiContext): Promise<ApiResponse> {
  const token = getEnv().METRICS_TOKEN;
  if (token) {
    const sent = Buffer.from(headers.get("authorization") ?? "");
    const expected = Buffer.from(`Bearer ${token}`);
    if (sent.length !== expected.length || !crypto.timingSafeEqual(sent, expected)) {
      throw new AppError("UNAUTHORIZED", "Unauthorized", { description: "A valid metrics token is required" });
    }
  }
  return new ApiResponse(200, await readMetrics(), { "content-type": metrics().registry.contentType });
}
