// The one auth wrapper of the public API: every /api/v1 handler but health runs behind it. It
// authenticates the key (on the request's head, before the body is read: runApiRequest calls its
// `authenticate` first and passes the key in), applies the key's rate limit, and puts the
// RateLimit-* headers on whatever the handler answers, errors included. With { keyRecheckedByHandler: true } (the hot SMS endpoints)
// the key may come from this process's cache (authenticate-api-key.ts): the handler's own statement
// re-checks it, and any answer not made under that check (an error, a 429, a non-2xx response here; a
// replayed response in withIdempotency) reads the key first, so a revoked key gets exactly the 401 it
// would get without a cache.
import type { ApiContext, ApiHandler, RequestHeaders } from "@/lib/api/route";
import { consumeRateLimit, rateLimitHeaders, type RateLimitDecision } from "@/lib/api/rate-limit/consume-rate-limit";
import { AppError, isAppError } from "@/lib/errors";
import { getEnv } from "@/lib/env";
import { authenticateApiKey, confirmApiKey, forgetApiKey, type ApiKeyAuth } from "./authenticate-api-key";
import type { ApiResponse } from "@/lib/api/respond";
import { isOwnersKey } from "@/lib/keys/key-origin";

export type AuthedContext = ApiContext & { auth: ApiKeyAuth };

export type ApiKeyOptions = {
  /**
   * The handler re-reads the key's state itself, in the statement or transaction of its own work,
   * and answers UNAUTHORIZED (unknownApiKeyError) for a key no longer usable: the hot SMS endpoints.
   * The key may then come from this process's cache, so a request reads no key row of its own.
   */
  keyRecheckedByHandler?: boolean;
  /**
   * Keys that may call, for routes about the account's live configuration: "live" refuses test keys;
   * "owner" (changes only an account owner may make in the dashboard: webhook endpoints, sender id
   * requests) also refuses a live key no current owner stands behind. Either answers 403.
   */
  restrictedTo?: "live" | "owner";
};

/** Who an API request acts as, in the ledger and the audit log. */
export function keyActor(auth: ApiKeyAuth): string {
  return `key:${auth.keyId}`;
}

export function withApiKey(handler: (context: AuthedContext) => Promise<ApiResponse>, options: ApiKeyOptions = {}): ApiHandler {
  const authenticate = (headers: RequestHeaders) =>
    authenticateApiKey(headers.get("authorization"), { cached: options.keyRecheckedByHandler });
  const authenticated = async (context: ApiContext) => {
    const auth = context.auth ?? (await authenticate(context.headers));
    const limit = auth.rateLimitPerSecond ?? getEnv().RATE_LIMIT_PER_SECOND;
    const decision = consumeRateLimit(auth.keyId, limit);
    try {
      if (!decision.allowed) {
        throw new AppError("RATE_LIMITED", "Too many requests", {
          description: `This API key may make ${limit} requests per second; retry after ${decision.retryAfterSeconds} s`,
          retryAfterSeconds: decision.retryAfterSeconds,
        });
      }
      if (options.restrictedTo) await refuseKeyOutside(options.restrictedTo, auth);
      const log = context.log.child({ accountId: auth.accountId, keyId: auth.keyId });
      const response = await handler(Object.assign({}, context, { auth, log }));
      if (!response.ok) await confirmApiKey(auth);
      setRateLimitHeaders(context, decision);
      return response;
    } catch (error) {
      // A key from the cache that was revoked meanwhile gets the 401 of authentication (without
      // RateLimit-* headers, like any 401), not whatever else the request would have answered.
      const refusal = isUnauthorized(error)
        ? error
        : await confirmApiKey(auth).then(
            () => error,
            (revoked: unknown) => revoked,
          );
      if (isUnauthorized(refusal)) forgetApiKey(auth);
      else setRateLimitHeaders(context, decision);
      throw refusal;
    }
  };
  return Object.assign(authenticated, { authenticate });
}

async function refuseKeyOutside(restrictedTo: "live" | "owner", auth: ApiKeyAuth): Promise<void> {
  if (auth.mode === "test") {
    throw new AppError("FORBIDDEN", "Live keys only", { description: "A test key cannot reach the account's live configuration" });
  }
  if (restrictedTo === "owner" && !(await isOwnersKey(auth.keyId, auth.accountId))) {
    throw new AppError("FORBIDDEN", "Owners' keys only", {
      description: "Only a key created by a current owner of the account (or with the admin CLI) can make this change",
    });
  }
}

function isUnauthorized(error: unknown): boolean {
  return isAppError(error) && error.code === "UNAUTHORIZED";
}

function setRateLimitHeaders(context: ApiContext, decision: RateLimitDecision): void {
  Object.assign(context.responseHeaders, rateLimitHeaders(decision));
}
