// Revocation is immediate across processes: two server processes on the same database (the same
// PostgreSQL, or the same SQLite file), a key revoked through one is refused by the other on the very
// next request. The hot SMS endpoints take keys from a per-process cache; a key in process A's cache
// is refused there all the same, in the endpoint's 401, and a refused send writes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { revokeApiKey } from "@/lib/keys/revoke-api-key";
import { createApiKey, type CreatedApiKey } from "@/lib/keys/create-api-key";
import { useTestDatabase } from "../helpers/test-database";
import { callApi, expectKitError, seedAccount, startApiServer, type ApiCall, type SeededAccount } from "../helpers/api-test-server";
import type { ServerProcess } from "../helpers/server-process";

const database = useTestDatabase();
let processA: ServerProcess;
let processB: ServerProcess;
let account: SeededAccount;
/** A message of the account, for the reads. */
let messageId: string;

beforeAll(async () => {
  [processA, processB] = await Promise.all([startApiServer(database.current()), startApiServer(database.current())]);
  account = await seedAccount();
  const sent = await callApi(processA.url, "POST", "/api/v1/sms", { token: account.token, body: SINGLE_SEND });
  expect(sent.status).toBe(202);
  messageId = sent.body.id;
});

afterAll(async () => {
  await Promise.all([processA?.kill(), processB?.kill()]);
});

const SINGLE_SEND = { to: "0771234567", message: "Hello", from: "ACME" };
const newKey = (name: string) => createApiKey({ accountId: account.accountId, name, actor: "test" });

describe("revocation across processes", () => {
  it("a key revoked through process A is refused by process B on its next request", async () => {
    const key = await newKey("doomed");
    // Both processes have authenticated (and would have cached, if they cached) the key.
    for (let i = 0; i < 3; i++) {
      expect((await callApi(processA.url, "GET", "/api/v1/api-tokens", { token: key.token })).status).toBe(200);
      expect((await callApi(processB.url, "GET", "/api/v1/api-tokens", { token: key.token })).status).toBe(200);
    }
    const revoked = await callApi(processA.url, "DELETE", `/api/v1/api-tokens/${key.id}`, { token: account.token });
    expect(revoked.status).toBe(200);
    expectKitError(await callApi(processB.url, "GET", "/api/v1/api-tokens", { token: key.token }), 401, "UNAUTHORIZED");
    expectKitError(await callApi(processA.url, "GET", "/api/v1/api-tokens", { token: key.token }), 401, "UNAUTHORIZED");
    // The revoking key itself is untouched in both.
    expect((await callApi(processB.url, "GET", "/api/v1/api-tokens", { token: account.token })).status).toBe(200);
  });

  it("a key revoking itself through B is refused by A at once", async () => {
    const key = await newKey("self");
    expect((await callApi(processA.url, "GET", "/api/v1/api-tokens", { token: key.token })).status).toBe(200);
    expect((await callApi(processB.url, "DELETE", `/api/v1/api-tokens/${key.id}`, { token: key.token })).status).toBe(200);
    expectKitError(
      await callApi(processA.url, "POST", "/api/v1/api-tokens", { token: key.token, body: { name: "x" } }),
      401,
      "UNAUTHORIZED",
    );
  });

  it("a revoke from the dashboard (another process again) is seen by both servers on the next request", async () => {
    const key = await newKey("dashboard");
    expect((await callApi(processA.url, "GET", "/api/v1/api-tokens", { token: key.token })).status).toBe(200);
    expect((await callApi(processB.url, "GET", "/api/v1/api-tokens", { token: key.token })).status).toBe(200);
    expect(await revokeApiKey({ accountId: account.accountId, keyId: key.id, actor: "user:test" })).toBe(true);
    expectKitError(await callApi(processA.url, "GET", "/api/v1/api-tokens", { token: key.token }), 401, "UNAUTHORIZED");
    expectKitError(await callApi(processB.url, "GET", "/api/v1/api-tokens", { token: key.token }), 401, "UNAUTHORIZED");
  });

  it("under a stream of requests, no request after the revoke succeeds in either process", async () => {
    const key = await newKey("busy");
    let revokedAt = 0;
    const results: { at: number; status: number }[] = [];
    const hammer = async (url: string) => {
      for (let i = 0; i < 40; i++) {
        const sentAt = performance.now();
        const call = await callApi(url, "GET", "/api/v1/api-tokens", { token: key.token });
        results.push({ at: sentAt, status: call.status });
        if (i === 10 && url === processA.url) {
          await callApi(processA.url, "DELETE", `/api/v1/api-tokens/${key.id}`, { token: account.token });
          revokedAt = performance.now();
        }
      }
    };
    await Promise.all([hammer(processA.url), hammer(processB.url)]);
    expect(revokedAt).toBeGreaterThan(0);
    const after = results.filter((result) => result.at > revokedAt);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((result) => result.status === 401)).toBe(true);
    expect(results.some((result) => result.status === 200)).toBe(true);
  });
});

/** The hot endpoints, which may take the key from the process's cache, and their success status. */
const hotEndpoints: Array<[string, number, (url: string, token: string, headers?: Record<string, string>) => Promise<ApiCall>]> = [
  ["POST /api/v1/sms", 202, (url, token, headers) => callApi(url, "POST", "/api/v1/sms", { token, body: SINGLE_SEND, headers })],
  [
    "POST /api/v1/sms/bulk",
    202,
    (url, token, headers) =>
      callApi(url, "POST", "/api/v1/sms/bulk", { token, body: { ...SINGLE_SEND, to: ["0771234567", "0711234567"] }, headers }),
  ],
  ["GET /api/v1/sms/:id", 200, (url, token) => callApi(url, "GET", `/api/v1/sms/${messageId}`, { token })],
];

/** Ways a key stops authenticating, each done outside process A. */
const revocations: Array<[string, (key: CreatedApiKey) => Promise<void>]> = [
  [
    "revoked through process B",
    async (key) =>
      expect((await callApi(processB.url, "DELETE", `/api/v1/api-tokens/${key.id}`, { token: account.token })).status).toBe(200),
  ],
  [
    "revoked in the database (the dashboard)",
    async (key) => expect(await revokeApiKey({ accountId: account.accountId, keyId: key.id, actor: "user:test" })).toBe(true),
  ],
  [
    "expired (its roll's grace period ended)",
    async (key) => void (await db().apiKey.update({ where: { id: key.id }, data: { expiresAt: new Date(Date.now() - 1000) } })),
  ],
];

/** Everything a send writes, to prove a refused one wrote nothing. */
async function footprint() {
  const { balance } = await db().account.findUniqueOrThrow({ where: { id: account.accountId } });
  const where = { accountId: account.accountId };
  return {
    balance,
    messages: await db().message.count({ where }),
    ledger: await db().ledgerEntry.count({ where }),
    bulkSends: await db().bulkSend.count({ where }),
    idempotencyKeys: await db().idempotencyKey.count({ where }),
  };
}

/** Exactly authentication's refusal of a revoked key: 401 kit, and no RateLimit-* headers. */
function expectUnknownKey(call: ApiCall): void {
  expectKitError(call, 401, "UNAUTHORIZED");
  expect(call.body.error.description).toBe("The API key is unknown or revoked");
  expect(call.headers.get("www-authenticate")).toBe('Bearer realm="tumira"');
  expect(call.headers.get("ratelimit-limit")).toBeNull();
}

/** A new key, used on process A's hot endpoint until A has it in its cache. */
async function keyCachedByA(name: string, call: (url: string, token: string) => Promise<ApiCall>, status: number): Promise<CreatedApiKey> {
  const key = await newKey(name);
  for (let i = 0; i < 2; i++) expect((await call(processA.url, key.token)).status).toBe(status);
  return key;
}

describe("the hot SMS endpoints, with the key in process A's cache", () => {
  it("take the key from the cache (the rate limit read with it is kept), while other endpoints read it every time", async () => {
    const [, , read] = hotEndpoints[2];
    const key = await keyCachedByA("cached", read, 200);
    await db().account.update({ where: { id: account.accountId }, data: { rateLimitPerSecond: 77 } });
    try {
      expect((await read(processA.url, key.token)).headers.get("ratelimit-limit")).toBe("200");
      expect((await callApi(processA.url, "GET", "/api/v1/api-tokens", { token: key.token })).headers.get("ratelimit-limit")).toBe("77");
    } finally {
      await db().account.update({ where: { id: account.accountId }, data: { rateLimitPerSecond: null } });
    }
  });

  for (const [endpoint, status, call] of hotEndpoints) {
    it.each(revocations)(`${endpoint} refuses a key %s at once, and writes nothing`, async (how, revoke) => {
      const key = await keyCachedByA(`${endpoint} ${how}`, call, status);
      const before = await footprint();
      await revoke(key);
      expectUnknownKey(await call(processA.url, key.token, { "idempotency-key": crypto.randomUUID() }));
      expect(await footprint()).toEqual(before);
      // And on every later request, in both processes.
      expectUnknownKey(await call(processA.url, key.token));
      expectUnknownKey(await call(processB.url, key.token));
      expect(await footprint()).toEqual(before);
    });
  }

  it.each(hotEndpoints.slice(0, 2))("%s: the refused send's Idempotency-Key is left free", async (endpoint, status, call) => {
    const key = await keyCachedByA(`idempotency ${endpoint}`, call, status);
    await revokeApiKey({ accountId: account.accountId, keyId: key.id, actor: "user:test" });
    const idempotencyKey = crypto.randomUUID();
    expectUnknownKey(await call(processA.url, key.token, { "idempotency-key": idempotencyKey }));
    expect(await db().idempotencyKey.count({ where: { accountId: account.accountId, key: idempotencyKey } })).toBe(0);
    const retried = await call(processA.url, account.token, { "idempotency-key": idempotencyKey });
    expect(retried.status).toBe(status);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
  });

  it.each(hotEndpoints.slice(0, 2))("%s: a stored response is not replayed to the key once revoked", async (endpoint, status, call) => {
    const key = await keyCachedByA(`replay ${endpoint}`, call, status);
    const idempotencyKey = crypto.randomUUID();
    expect((await call(processA.url, key.token, { "idempotency-key": idempotencyKey })).status).toBe(status);
    expect((await call(processA.url, key.token, { "idempotency-key": idempotencyKey })).headers.get("idempotent-replayed")).toBe("true");
    await revokeApiKey({ accountId: account.accountId, keyId: key.id, actor: "user:test" });
    expectUnknownKey(await call(processA.url, key.token, { "idempotency-key": idempotencyKey }));
  });

  it("answers a revoked key 401, not 422, for its Idempotency-Key reused with another body", async () => {
    const [[, , single]] = hotEndpoints;
    const key = await keyCachedByA("mismatch", single, 202);
    const idempotencyKey = crypto.randomUUID();
    expect((await single(processA.url, key.token, { "idempotency-key": idempotencyKey })).status).toBe(202);
    await revokeApiKey({ accountId: account.accountId, keyId: key.id, actor: "user:test" });
    const before = await footprint();
    const reused = { token: key.token, body: { ...SINGLE_SEND, message: "Another" }, headers: { "idempotency-key": idempotencyKey } };
    expectUnknownKey(await callApi(processA.url, "POST", "/api/v1/sms", reused));
    expect(await footprint()).toEqual(before);
  });

  it.each([
    ["a read of an unknown id (404)", (token: string) => callApi(processA.url, "GET", `/api/v1/sms/${crypto.randomUUID()}`, { token })],
    ["a read of a malformed id (400)", (token: string) => callApi(processA.url, "GET", "/api/v1/sms/not-a-uuid", { token })],
    [
      "an invalid single send (400)",
      (token: string) => callApi(processA.url, "POST", "/api/v1/sms", { token, body: { ...SINGLE_SEND, to: "12" } }),
    ],
    [
      "a bulk send from an unapproved sender (400)",
      (token: string) =>
        callApi(processA.url, "POST", "/api/v1/sms/bulk", { token, body: { ...SINGLE_SEND, from: "NOPE", to: ["0771234567"] } }),
    ],
  ])("answers a revoked key 401 for %s, as without a cache", async (what, refused) => {
    const [, , read] = hotEndpoints[2];
    const key = await keyCachedByA(`refused ${what}`, read, 200);
    await revokeApiKey({ accountId: account.accountId, keyId: key.id, actor: "user:test" });
    const before = await footprint();
    expectUnknownKey(await refused(key.token));
    expect(await footprint()).toEqual(before);
  });

  it("under a stream of reads and sends, no request after the revoke succeeds in either process", async () => {
    const [[, , single], , [, , read]] = hotEndpoints;
    const key = await keyCachedByA("busy hot", read, 200);
    let revokedAt = 0;
    const results: { at: number; status: number }[] = [];
    const hammer = async (url: string) => {
      for (let i = 0; i < 30; i++) {
        const sentAt = performance.now();
        const call = await (i % 2 === 0 ? read : single)(url, key.token);
        results.push({ at: sentAt, status: call.status });
        if (i === 10 && url === processA.url) {
          await revokeApiKey({ accountId: account.accountId, keyId: key.id, actor: "user:test" });
          revokedAt = performance.now();
        }
      }
    };
    await Promise.all([hammer(processA.url), hammer(processB.url)]);
    const after = results.filter((result) => result.at > revokedAt);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((result) => result.status === 401)).toBe(true);
    expect(results.some((result) => result.status === 202)).toBe(true);
    // Every committed send of the key was answered 202: none slipped past the revoke unanswered.
    expect(await db().message.count({ where: { apiKeyId: key.id } })).toBe(results.filter((result) => result.status === 202).length);
  });
});
