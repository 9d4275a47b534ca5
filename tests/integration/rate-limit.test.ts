// Per-key rate limit: the token bucket's arithmetic on a given clock, then over real HTTP: 429 with
// Retry-After in the endpoint's error shape, RateLimit-* headers, the account override set by the CLI.
import { beforeAll, describe, expect, it } from "vitest";
import { consumeRateLimit } from "@/lib/api/rate-limit/consume-rate-limit";
import { createApiKey } from "@/lib/keys/create-api-key";
import { runCli } from "@/lib/cli/run-cli";
import { expectKitError, expectLegacyError, seedAccount, useApiServer, type SeededAccount } from "../helpers/api-test-server";

describe("token bucket", () => {
  it("allows `limit` requests at once, then refills at `limit` per second", () => {
    const key = crypto.randomUUID();
    const burst = Array.from({ length: 6 }, () => consumeRateLimit(key, 5, 1_000));
    expect(burst.map((decision) => decision.allowed)).toEqual([true, true, true, true, true, false]);
    expect(burst.map((decision) => decision.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(burst[5]).toMatchObject({ limit: 5, retryAfterSeconds: 1, resetSeconds: 1 });
    expect(consumeRateLimit(key, 5, 1_100).allowed).toBe(false); // half a request refilled
    expect(consumeRateLimit(key, 5, 1_200).allowed).toBe(true); // a whole one
    expect(consumeRateLimit(key, 5, 10_000)).toMatchObject({ allowed: true, remaining: 4 }); // full again, never above the limit
  });

  it("keeps each key's bucket apart", () => {
    const [first, second] = [crypto.randomUUID(), crypto.randomUUID()];
    expect(consumeRateLimit(first, 1, 0).allowed).toBe(true);
    expect(consumeRateLimit(first, 1, 0).allowed).toBe(false);
    expect(consumeRateLimit(second, 1, 0).allowed).toBe(true);
  });

  it("applies a lowered limit at once and a clock that steps back refills nothing", () => {
    const key = crypto.randomUUID();
    expect(consumeRateLimit(key, 100, 0).remaining).toBe(99);
    expect(consumeRateLimit(key, 2, 0)).toMatchObject({ allowed: true, remaining: 1 });
    expect(consumeRateLimit(key, 2, -5_000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(consumeRateLimit(key, 2, -5_000).allowed).toBe(false);
  });

  it("never answers a Retry-After below one second, even for a fractional wait", () => {
    const key = crypto.randomUUID();
    consumeRateLimit(key, 1000, 0);
    for (let i = 0; i < 999; i++) consumeRateLimit(key, 1000, 0);
    expect(consumeRateLimit(key, 1000, 0)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
  });
});

describe("over HTTP", () => {
  const { api } = useApiServer({ RATE_LIMIT_PER_SECOND: "2" });
  let limited: SeededAccount;
  let raised: SeededAccount;

  beforeAll(async () => {
    limited = await seedAccount({ name: "Limited" });
    raised = await seedAccount({ name: "Raised" });
    const result = await runCli(["accounts:rate-limit", "--account", raised.accountId, "--limit", "1000"]);
    expect(result.code).toBe(0);
  });

  const burst = (token: string, count: number) =>
    Promise.all(Array.from({ length: count }, () => api("GET", "/api/v1/api-tokens", { token })));

  it("answers 429 kit TOO_MANY_REQUESTS with Retry-After and RateLimit-* over the default limit, then lets the key in again", async () => {
    const calls = await burst(limited.token, 30);
    const refused = calls.filter((call) => call.status === 429);
    expect(calls.some((call) => call.status === 200)).toBe(true);
    expect(refused.length).toBeGreaterThan(0);
    expect(calls.every((call) => call.status === 200 || call.status === 429)).toBe(true);
    for (const call of calls) expect(call.headers.get("ratelimit-limit")).toBe("2");
    const [first] = refused;
    expectKitError(first, 429, "TOO_MANY_REQUESTS");
    expect(first.body.error.description).toMatch(/2 requests per second/);
    expect(first.headers.get("retry-after")).toBe("1");
    expect(first.headers.get("ratelimit-remaining")).toBe("0");
    expect(first.headers.get("ratelimit-reset")).toBe("1");

    await new Promise((resolve) => setTimeout(resolve, Number(first.headers.get("retry-after")) * 1000));
    expect((await api("GET", "/api/v1/api-tokens", { token: limited.token })).status).toBe(200);
  });

  it("answers the 429 in the endpoint's error shape: legacy for GET /api/v1/sms/:id", async () => {
    const reader = await createApiKey({ accountId: limited.accountId, name: "reader", actor: "test" });
    const calls = await Promise.all(
      Array.from({ length: 30 }, () => api("GET", `/api/v1/sms/${crypto.randomUUID()}`, { token: reader.token })),
    );
    expect(calls.some((call) => call.status === 404)).toBe(true);
    const refused = calls.find((call) => call.status === 429);
    expectLegacyError(refused!, 429, "ERR_TOO_MANY_REQUESTS");
    expect(refused!.headers.get("retry-after")).toBe("1");
    expect(refused!.headers.get("ratelimit-limit")).toBe("2");
  });

  it("limits per key: another key of the same account has its own allowance", async () => {
    const second = await createApiKey({ accountId: limited.accountId, name: "second", actor: "test" });
    await burst(limited.token, 10);
    const call = await api("GET", "/api/v1/api-tokens", { token: second.token });
    expect(call.status).toBe(200);
    expect(call.headers.get("ratelimit-remaining")).toBe("1");
  });

  it("applies the account override set with `accounts:rate-limit`, and `default` restores the platform limit", async () => {
    const calls = await burst(raised.token, 30);
    expect(calls.map((call) => call.status)).toEqual(Array(30).fill(200));
    expect(calls[0].headers.get("ratelimit-limit")).toBe("1000");
    expect(Number(calls[0].headers.get("ratelimit-remaining"))).toBeLessThan(1000);

    expect((await runCli(["accounts:rate-limit", "--account", raised.accountId, "--limit", "default"])).code).toBe(0);
    const after = await burst(raised.token, 10);
    expect(after.every((call) => call.headers.get("ratelimit-limit") === "2")).toBe(true);
    expect(after.some((call) => call.status === 429)).toBe(true);
  });

  it("does not count requests without a valid key against any key", async () => {
    const fresh = await seedAccount({ name: "Fresh" });
    const tampered = fresh.token.slice(0, -1) + (fresh.token.endsWith("x") ? "y" : "x");
    const refused = await Promise.all(Array.from({ length: 10 }, () => api("GET", "/api/v1/api-tokens", { token: tampered })));
    expect(refused.every((call) => call.status === 401)).toBe(true);
    const call = await api("GET", "/api/v1/api-tokens", { token: fresh.token });
    expect(call.status).toBe(200);
    expect(call.headers.get("ratelimit-remaining")).toBe("1");
  });
});
