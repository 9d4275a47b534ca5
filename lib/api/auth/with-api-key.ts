// The one auth wrapper of the public API: every /api/v1 handler but health runs behind it. It
// authenticates the key, applies the key's rate limit, and puts the RateLimit-* headers on whatever
// the handler answers, errors included.
import type { ApiContext, ApiHandler } from "@/lib/api/route";
import { consumeRateLimit, rateLimitHeaders } from "@/lib/api/rate-limit/consume-rate-limit";
import { AppError } from "@/lib/errors";
import { getEnv } from "@/lib/env";
import { authenticateApiKey, type ApiKeyAuth } from "./authenticate-api-key";
import type { ApiResponse } from "@/lib/api/respond";

export type AuthedContext = ApiContext & { auth: ApiKeyAuth };

/** Who an API request acts as, in the ledger and the audit log. */
export function keyActor(auth: ApiKeyAuth): string {
  return `key:${auth.keyId}`;
}

export function withApiKey(handler: (context: AuthedContext) => Promise<ApiResponse>): ApiHandler {
  return async (context) => {
    const auth = await authenticateApiKey(context.request.headers.get("authorization"));
    const limit = auth.rateLimitPerSecond ?? getEnv().RATE_LIMIT_PER_SECOND;
    const decision = consumeRateLimit(auth.keyId, limit);
    for (const [name, value] of Object.entries(rateLimitHeaders(decision))) context.responseHeaders.set(name, value);
    if (!decision.allowed) {
      throw new AppError("RATE_LIMITED", "Too many requests", {
        description: `This API key may make ${limit} requests per second; retry after ${decision.retryAfterSeconds} s`,
        retryAfterSeconds: decision.retryAfterSeconds,
      });
    }
    return handler({ ...context, auth, log: context.log.child({ accountId: auth.accountId, keyId: auth.keyId }) });
  };
}
