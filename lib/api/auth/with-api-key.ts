// The one auth wrapper of the public API: every /api/v1 handler but health runs behind it. It
// authenticates the key, applies the key's rate limit, and puts the RateLimit-* headers on whatever
// the handler answers, errors included.
import type { ApiContext, ApiHandler } from "@/lib/api/route";
import { attachErrorHeaders } from "@/lib/api/respond";
import { consumeRateLimit, rateLimitHeaders } from "@/lib/api/rate-limit/consume-rate-limit";
import { AppError } from "@/lib/errors";
import { getEnv } from "@/lib/env";
import { authenticateApiKey, type ApiKeyAuth } from "./authenticate-api-key";

export type AuthedContext = ApiContext & { auth: ApiKeyAuth };

/** Who an API request acts as, in the ledger and the audit log. */
export function keyActor(auth: ApiKeyAuth): string {
  return `key:${auth.keyId}`;
}

export function withApiKey(handler: (context: AuthedContext) => Promise<Response>): ApiHandler {
  return async (context) => {
    const auth = await authenticateApiKey(context.request.headers.get("authorization"));
    const limit = auth.rateLimitPerSecond ?? getEnv().RATE_LIMIT_PER_SECOND;
    const decision = consumeRateLimit(auth.keyId, limit);
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      const error = new AppError("RATE_LIMITED", "Too many requests", {
        description: `This API key may make ${limit} requests per second; retry after ${decision.retryAfterSeconds} s`,
        retryAfterSeconds: decision.retryAfterSeconds,
      });
      throw attachErrorHeaders(error, headers);
    }
    try {
      const response = await handler({ ...context, auth, log: context.log.child({ accountId: auth.accountId, keyId: auth.keyId }) });
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      return response;
    } catch (error) {
      throw attachErrorHeaders(error, headers);
    }
  };
}
