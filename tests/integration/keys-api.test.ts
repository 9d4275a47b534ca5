// Key endpoints over real HTTP (spec 4.4-4.6, every row of their status tables), authentication
// failures (spec 5), test keys, cross-account isolation, and LastUsedAt bookkeeping.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { generateToken, hashToken } from "@/lib/keys/token";
import { createApiKey } from "@/lib/keys/create-api-key";
import { authenticateApiKey, MISSING_AUTHENTICATION } from "@/lib/api/auth/authenticate-api-key";
import { apiKeyCreatedSchema, apiKeyListEntrySchema } from "@/lib/keys/key-schemas";
import { bareEnvelopeSchema, envelopeSchema } from "@/lib/api/response-schemas";
import { expectKitError, seedAccount, useApiServer, type SeededAccount } from "../helpers/api-test-server";

const { api } = useApiServer();

let acme: SeededAccount;
let other: SeededAccount;

beforeAll(async () => {
  acme = await seedAccount({ name: "Acme" });
  other = await seedAccount({ name: "Other" });
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const value = await read();
    if (done(value) || attempt >= 100) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("POST /api/v1/api-tokens", () => {
  it("201: the snake_case create response, the token shown once and stored only as a hash", async () => {
    const call = await api("POST", "/api/v1/api-tokens", { token: acme.token, body: { name: "  reporting  " } });
    expect(call.status).toBe(201);
    const body = envelopeSchema(apiKeyCreatedSchema.strict()).strict().parse(call.body);
    expect(body.status).toBe("success");
    expect(typeof body.message).toBe("string");
    expect(Object.keys(body.data).sort()).toEqual(["account_id", "created_at", "id", "name", "token", "token_prefix"]);
    expect(body.data).toMatchObject({ name: "reporting", account_id: acme.accountId });
    expect(body.data.token).toMatch(/^tmr_live_[0-9A-Za-z]{38}$/);
    expect(body.data.token_prefix).toBe(body.data.token.slice(0, 12));
    const stored = await db().apiKey.findUniqueOrThrow({ where: { id: body.data.id } });
    expect(stored.tokenHash).toBe(hashToken(body.data.token));
    expect(JSON.stringify(stored)).not.toContain(body.data.token);
    // The new key works at once.
    expect((await api("GET", "/api/v1/api-tokens", { token: body.data.token })).status).toBe(200);
  });

  it.each([
    ["missing", {}, "cannot be blank"],
    ["blank", { name: "   " }, "cannot be blank"],
    ["null", { name: null }, "cannot be blank"],
    ["a number", { name: 42 }, "must be a string"],
    ["too long", { name: "x".repeat(101) }, "must be at most 100 characters"],
    ["half a surrogate pair", { name: "ci \ud800" }, "must not contain NUL characters or unpaired surrogates"],
    ["a NUL", { name: "ci\u0000key" }, "must not contain NUL characters or unpaired surrogates"],
  ])("400 VALIDATION_ERROR naming `name` when it is %s, and creates nothing", async (_case, body, description) => {
    const before = await db().apiKey.count();
    const call = await api("POST", "/api/v1/api-tokens", { token: acme.token, body });
    expectKitError(call, 400, "VALIDATION_ERROR");
    expect(call.body.error.validation_errors).toEqual([{ field: "name", description }]);
    expect(call.body.error.description).toMatch(/one or more fields failed validation/i);
    expect(await db().apiKey.count()).toBe(before);
  });

  it("400 on an empty body names the missing `name`; malformed JSON is a kit BAD_REQUEST", async () => {
    const empty = await api("POST", "/api/v1/api-tokens", { token: acme.token, body: "" });
    expectKitError(empty, 400, "VALIDATION_ERROR");
    expect(empty.body.error.validation_errors).toEqual([{ field: "name", description: "cannot be blank" }]);
    for (const text of ["{name:", "[]", '"name"', "null"]) {
      expectKitError(await api("POST", "/api/v1/api-tokens", { token: acme.token, body: text }), 400, "BAD_REQUEST");
    }
  });

  it("400 BAD_REQUEST for a body that is not declared JSON; a bodiless request needs no Content-Type", async () => {
    const before = await db().apiKey.count();
    const plain = await api("POST", "/api/v1/api-tokens", {
      token: acme.token,
      body: '{"name":"x"}',
      headers: { "content-type": "text/plain" },
    });
    expectKitError(plain, 400, "BAD_REQUEST");
    expect(plain.body.error.description).toMatch(/Content-Type: application\/json/);
    const bare = await api("POST", "/api/v1/api-tokens", { token: acme.token });
    expect(bare.body.error.validation_errors).toEqual([{ field: "name", description: "cannot be blank" }]);
    expect(await db().apiKey.count()).toBe(before);
  });

  it("Idempotency-Key: the same request replays the first answer (the same key), a different one is refused", async () => {
    const headers = { "idempotency-key": `create-${crypto.randomUUID()}` };
    const before = await db().apiKey.count();
    const first = await api("POST", "/api/v1/api-tokens", { token: acme.token, headers, body: { name: "deploy" } });
    const again = await api("POST", "/api/v1/api-tokens", { token: acme.token, headers, body: { name: "deploy" } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await db().apiKey.count()).toBe(before + 1);
    const other = await api("POST", "/api/v1/api-tokens", { token: acme.token, headers, body: { name: "something else" } });
    expectKitError(other, 422, "IDEMPOTENCY_KEY_REUSED");
    expect(await db().apiKey.count()).toBe(before + 1);
    // The stored answer it replays holds the key's secret only sealed.
    const stored = await db().idempotencyKey.findFirstOrThrow({ where: { key: headers["idempotency-key"] } });
    expect(stored.responseBody).not.toContain(first.body.data.token);
    expect(stored.responseBody).not.toContain(first.body.data.token.slice(12));
  });

  it("a key created with a test key is a test key", async () => {
    const sandbox = await seedAccount({ name: "Sandbox", mode: "test" });
    const call = await api("POST", "/api/v1/api-tokens", { token: sandbox.token, body: { name: "ci" } });
    expect(call.status).toBe(201);
    expect(call.body.data.token).toMatch(/^tmr_test_/);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: call.body.data.id } })).mode).toBe("test");
  });
});

describe("GET /api/v1/api-tokens", () => {
  it('200: message "", PascalCase entries of the caller\'s account only, no key material', async () => {
    const call = await api("GET", "/api/v1/api-tokens", { token: other.token });
    expect(call.status).toBe(200);
    const body = envelopeSchema(apiKeyListEntrySchema.strict().array()).strict().parse(call.body);
    expect(body.message).toBe("");
    expect(body.data.map((key) => key.ID)).toEqual([other.keyId]);
    const [entry] = body.data;
    expect(Object.keys(entry).sort()).toEqual(["AccountId", "Active", "CreatedAt", "ID", "LastUsedAt", "Name", "TokenPrefix", "UpdatedAt"]);
    expect(entry).toMatchObject({ Name: "first key", AccountId: other.accountId, Active: true, TokenPrefix: other.token.slice(0, 12) });
    expect(call.text).not.toContain(other.token);
    expect(call.text).not.toContain(hashToken(other.token));
    expect(call.text).not.toMatch(/hash/i);
  });

  it("a test key sees only the account's test keys", async () => {
    const account = await seedAccount({ name: "Mixed" });
    const created = await api("POST", "/api/v1/api-tokens", { token: account.token, body: { name: "live two" } });
    const testKey = await createApiKey({ accountId: account.accountId, name: "sandbox", mode: "test", actor: "test" });
    const live = await api("GET", "/api/v1/api-tokens", { token: account.token });
    expect(live.body.data.map((key: { ID: string }) => key.ID).sort()).toEqual([account.keyId, created.body.data.id, testKey.id].sort());
    const sandbox = await api("GET", "/api/v1/api-tokens", { token: testKey.token });
    expect(sandbox.body.data.map((key: { ID: string }) => key.ID)).toEqual([testKey.id]);
    // Nor can it revoke a live key: 200 as for any id it cannot see, and the live key keeps working.
    expect((await api("DELETE", `/api/v1/api-tokens/${account.keyId}`, { token: testKey.token })).status).toBe(200);
    expect((await api("GET", "/api/v1/api-tokens", { token: account.token })).status).toBe(200);
  });
});

describe("DELETE /api/v1/api-tokens/:id", () => {
  it("200 with status and message only; the revoked key gets 401 on its next request and lists as inactive", async () => {
    const created = (await api("POST", "/api/v1/api-tokens", { token: acme.token, body: { name: "to revoke" } })).body.data;
    expect((await api("GET", "/api/v1/api-tokens", { token: created.token })).status).toBe(200);
    const call = await api("DELETE", `/api/v1/api-tokens/${created.id}`, { token: acme.token });
    expect(call.status).toBe(200);
    expect(Object.keys(call.body).sort()).toEqual(["message", "status"]);
    expect(bareEnvelopeSchema.strict().parse(call.body).status).toBe("success");
    expectKitError(await api("GET", "/api/v1/api-tokens", { token: created.token }), 401, "UNAUTHORIZED");
    const listed = (await api("GET", "/api/v1/api-tokens", { token: acme.token })).body.data.find(
      (key: { ID: string }) => key.ID === created.id,
    );
    expect(listed.Active).toBe(false);
    // Revoking it again is still 200.
    expect((await api("DELETE", `/api/v1/api-tokens/${created.id}`, { token: acme.token })).status).toBe(200);
  });

  it("200 for an unknown id, and changes nothing", async () => {
    const before = await db().apiKey.findMany({ orderBy: { id: "asc" } });
    const call = await api("DELETE", `/api/v1/api-tokens/${crypto.randomUUID()}`, { token: acme.token });
    expect(call.status).toBe(200);
    expect(Object.keys(call.body).sort()).toEqual(["message", "status"]);
    expect(await db().apiKey.findMany({ orderBy: { id: "asc" } })).toEqual(before);
  });

  it("another account's key id answers exactly as an unknown id, and that key keeps working", async () => {
    const unknown = await api("DELETE", `/api/v1/api-tokens/${crypto.randomUUID()}`, { token: acme.token });
    const foreign = await api("DELETE", `/api/v1/api-tokens/${other.keyId}`, { token: acme.token });
    expect(foreign.status).toBe(200);
    expect(foreign.body).toEqual(unknown.body);
    expect((await api("GET", "/api/v1/api-tokens", { token: other.token })).status).toBe(200);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: other.keyId } })).active).toBe(true);
  });

  it.each(["not-a-uuid", "123", "00000000-0000-0000-0000-00000000000g", "%E0%A4%A"])(
    "400 BAD_REQUEST naming `id` for the non-UUID id %s",
    async (id) => {
      const call = await api("DELETE", `/api/v1/api-tokens/${id}`, { token: acme.token });
      expectKitError(call, 400, "BAD_REQUEST");
      expect(call.body.error.validation_errors).toEqual([{ field: "id", description: "must be a UUID" }]);
    },
  );

  it("a key can revoke itself: its next request is refused", async () => {
    const self = await seedAccount({ name: "Self" });
    expect((await api("DELETE", `/api/v1/api-tokens/${self.keyId}`, { token: self.token })).status).toBe(200);
    expectKitError(await api("GET", "/api/v1/api-tokens", { token: self.token }), 401, "UNAUTHORIZED");
  });
});

describe("authentication", () => {
  const endpoints: [string, string][] = [
    ["POST", "/api/v1/api-tokens"],
    ["GET", "/api/v1/api-tokens"],
    ["DELETE", `/api/v1/api-tokens/${crypto.randomUUID()}`],
  ];

  it.each(endpoints)("%s %s without a key: 401 kit UNAUTHORIZED saying authentication is missing", async (method, path) => {
    const call = await api(method, path, method === "POST" ? { body: { name: "x" } } : {});
    expectKitError(call, 401, "UNAUTHORIZED");
    expect(call.body.message).toBe(MISSING_AUTHENTICATION);
    expect(call.body.error.description).toBe(MISSING_AUTHENTICATION);
    expect(call.headers.get("ratelimit-limit")).toBeNull();
  });

  it.each(endpoints)(
    "%s %s with the scheme and no key (Bearer $KEY, $KEY unset): the same missing-authentication 401",
    async (method, path) => {
      for (const authorization of ["Bearer", "bearer", "Bearer  "]) {
        const call = await api(method, path, { headers: { authorization }, ...(method === "POST" ? { body: { name: "x" } } : {}) });
        expectKitError(call, 401, "UNAUTHORIZED");
        expect(call.body.message).toBe(MISSING_AUTHENTICATION);
        expect(call.body.error.description).toBe(MISSING_AUTHENTICATION);
      }
    },
  );

  it("refuses malformed, unknown, wrongly-schemed and tampered keys with 401, creating nothing", async () => {
    const before = await db().apiKey.count();
    const last = acme.token.at(-1) === "a" ? "b" : "a";
    const unknownButWellFormed = generateToken("live");
    const authorizations = [
      `Bearer ${acme.token.slice(0, -1)}${last}`, // checksum fails
      `Bearer ${acme.token.replace("tmr_live_", "tmr_test_")}`, // mode swapped: checksum fails
      `Bearer ${unknownButWellFormed}`,
      `Basic ${Buffer.from(`user:${acme.token}`).toString("base64")}`,
      `Bearer ${acme.token} extra`,
      acme.token,
      `Bearer ${"x".repeat(4000)}`,
    ];
    for (const authorization of authorizations) {
      const call = await api("POST", "/api/v1/api-tokens", { headers: { authorization }, body: { name: "sneaky" } });
      expectKitError(call, 401, "UNAUTHORIZED");
      expect(call.body.message).not.toBe(MISSING_AUTHENTICATION);
    }
    expect(await db().apiKey.count()).toBe(before);
  });

  it("accepts the scheme case-insensitively", async () => {
    expect((await api("GET", "/api/v1/api-tokens", { headers: { authorization: `bearer ${acme.token}` } })).status).toBe(200);
  });

  it("refuses a key whose grace period after a roll has passed", async () => {
    const rolled = await seedAccount({ name: "Rolled" });
    await db().apiKey.update({ where: { id: rolled.keyId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectKitError(await api("GET", "/api/v1/api-tokens", { token: rolled.token }), 401, "UNAUTHORIZED");
  });

  it("every authenticated response carries the RateLimit-* headers, errors included", async () => {
    for (const call of [
      await api("GET", "/api/v1/api-tokens", { token: acme.token }),
      await api("POST", "/api/v1/api-tokens", { token: acme.token, body: {} }),
      await api("DELETE", "/api/v1/api-tokens/nope", { token: acme.token }),
    ]) {
      expect(Number(call.headers.get("ratelimit-limit"))).toBe(200);
      expect(Number(call.headers.get("ratelimit-remaining"))).toBeGreaterThanOrEqual(0);
      expect(call.headers.get("ratelimit-reset")).toMatch(/^\d+$/);
    }
  });
});

describe("LastUsedAt", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is null until the key is used, then set off the response path", async () => {
    const fresh = await seedAccount({ name: "Fresh" });
    const before = (await api("GET", "/api/v1/api-tokens", { token: acme.token })).body;
    expect(before.data.every((key: { ID: string }) => key.ID !== fresh.keyId)).toBe(true);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: fresh.keyId } })).lastUsedAt).toBeNull();
    const started = Date.now();
    await api("GET", "/api/v1/api-tokens", { token: fresh.token });
    const stored = await until(
      () => db().apiKey.findUniqueOrThrow({ where: { id: fresh.keyId } }),
      (key) => key.lastUsedAt !== null,
    );
    expect(stored.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(started - 1000);
    const listed = await until(
      () => api("GET", "/api/v1/api-tokens", { token: fresh.token }),
      (call) => call.body.data[0].LastUsedAt !== null,
    );
    expect(new Date(listed.body.data[0].LastUsedAt).getTime()).toBe(stored.lastUsedAt!.getTime());
  });

  it("is written at most once a minute per key, however many requests and processes", async () => {
    const busy = await seedAccount({ name: "Busy" });
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-01T00:00:00.000Z") });
    const readLastUsed = () =>
      db()
        .apiKey.findUniqueOrThrow({ where: { id: busy.keyId } })
        .then((key) => key.lastUsedAt?.toISOString() ?? null);

    await authenticateApiKey(`Bearer ${busy.token}`);
    expect(await until(readLastUsed, (value) => value !== null)).toBe("2030-01-01T00:00:00.000Z");

    vi.setSystemTime(new Date("2030-01-01T00:00:59.000Z"));
    for (let i = 0; i < 20; i++) await authenticateApiKey(`Bearer ${busy.token}`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await readLastUsed()).toBe("2030-01-01T00:00:00.000Z");

    vi.setSystemTime(new Date("2030-01-01T00:01:01.000Z"));
    await authenticateApiKey(`Bearer ${busy.token}`);
    expect(await until(readLastUsed, (value) => value !== "2030-01-01T00:00:00.000Z")).toBe("2030-01-01T00:01:01.000Z");
  });

  it("another process that used the key within the minute does not write it again", async () => {
    const shared = await seedAccount({ name: "Shared" });
    const recent = new Date(Date.now() - 10_000);
    await db().apiKey.update({ where: { id: shared.keyId }, data: { lastUsedAt: recent } });
    await api("GET", "/api/v1/api-tokens", { token: shared.token });
    await authenticateApiKey(`Bearer ${shared.token}`);
    // Both processes asked; the conditional write left the other process's recent time in place.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: shared.keyId } })).lastUsedAt!.getTime()).toBe(recent.getTime());
  });
});
