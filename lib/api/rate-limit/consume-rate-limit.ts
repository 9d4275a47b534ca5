// Per-key request rate limit: a token bucket per key in this process's memory. The bucket holds up
// to `limit` requests and refills at `limit` per second, so a key gets its limit every second without
// the double burst of fixed windows at their boundary. A check is a Map lookup and some arithmetic.
// With N processes behind a balancer each keeps its own buckets (the effective limit is N x limit).

type Bucket = { tokens: number; updatedAt: number };

export type RateLimitDecision = {
  allowed: boolean;
  limit: number;
  /** Requests left right now. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until the next request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
};

const buckets = new Map<string, Bucket>();
const SWEEP_ABOVE = 10_000;
let sweepThreshold = SWEEP_ABOVE;

/** Takes one request from the key's bucket if it has one; `now` in milliseconds (monotonic). */
export function consumeRateLimit(key: string, limit: number, now = performance.now()): RateLimitDecision {
  let bucket = buckets.get(key);
  if (!bucket) {
    bucket = { tokens: limit, updatedAt: now };
    buckets.set(key, bucket);
    if (buckets.size > sweepThreshold) sweepIdleBuckets(now);
  } else {
    const elapsed = Math.max(0, now - bucket.updatedAt);
    // min() also shrinks a bucket at once when the account's limit was lowered.
    bucket.tokens = Math.min(limit, bucket.tokens + (elapsed * limit) / 1000);
    bucket.updatedAt = now;
  }
  const allowed = bucket.tokens >= 1;
  if (allowed) bucket.tokens -= 1;
  return {
    allowed,
    limit,
    remaining: Math.floor(bucket.tokens),
    resetSeconds: Math.ceil((limit - bucket.tokens) / limit),
    retryAfterSeconds: allowed ? 0 : Math.ceil((1 - bucket.tokens) / limit),
  };
}

/** Forgets buckets idle for a second or more: they are full again, as a new bucket would be. */
function sweepIdleBuckets(now: number): void {
  for (const [key, bucket] of buckets) {
    if (now - bucket.updatedAt >= 1000) buckets.delete(key);
  }
  sweepThreshold = Math.max(SWEEP_ABOVE, buckets.size * 2);
}

/** The IETF draft's RateLimit-* trio (draft-ietf-httpapi-ratelimit-headers), on every authenticated response. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    "ratelimit-limit": String(decision.limit),
    "ratelimit-remaining": String(decision.remaining),
    "ratelimit-reset": String(decision.resetSeconds),
  };
}
