// When a temporarily refused message is tried again: exponential backoff with jitter, and a limit
// after which it fails (and is refunded). Throttling is first absorbed inside the carrier
// connection (lib/smpp/carrier-connection.ts) and reaches this policy only when it persists.
export type RetryPolicy = {
  /** Dispatch attempts in all; the message fails when the last one is refused temporarily. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
};

/** 5 s, 10 s, 20 s … capped at 30 min, 12 attempts: about 1.7 hours of trying at most. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 12, baseDelayMs: 5_000, maxDelayMs: 30 * 60_000 };

/** Delay after the given (1-based) attempt: half to all of the exponential step, so retries spread out. */
export function retryDelayMs(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step * (0.5 + random() * 0.5));
}
