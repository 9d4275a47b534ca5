// Idempotency-Key on the send endpoints, over HTTP: a replay is the first response byte for byte and
// charges nothing again; a different request under the same key is refused; concurrent duplicates
// charge once; failed requests do not consume the key; keys are per account and expire after 24 h.
// The key's record is written in the transaction of the send it guards: a send rolled back, or
// killed before its commit, leaves the key free for a retry at once.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { creditBalance } from "@/lib/ledger/credit-balance";
import { createApiKey } from "@/lib/keys/create-api-key";
import {
  callApi,
  expectKitError,
  expectLegacyError,
  seedAccount,
  startApiServer,
  useApiServer,
  type SeededAccount,
} from "../helpers/api-test-server";
import { testDatabaseKind } from "../helpers/test-database";

const SERVER_ENV = { RATE_LIMIT_PER_SECOND: "100000" };
const { api, database } = useApiServer(SERVER_ENV);

const SINGLE = { to: "+263771234567", message: "Pay day", from: "ACME" };
const BULK = { to: ["+263771234567", "+263711234567"], message: "Pay day", from: "ACME" };

async function state(account: SeededAccount) {
  const { balance } = await db().account.findUniqueOrThrow({ where: { id: account.accountId } });
  return { balance, messages: await db().message.count({ where: { accountId: account.accountId } }) };
}

function post(account: SeededAccount, path: string, body: unknown, key: string) {
  return api("POST", path, { token: account.token, body, headers: { "idempotency-key": key } });
}

describe("Idempotency-Key", () => {
  it.each([
    ["/api/v1/sms", SINGLE, 1],
    ["/api/v1/sms/bulk", BULK, 2],
  ])("POST %s: the same key and body replays the first response exactly and charges once", async (path, body, perSend) => {
    const account = await seedAccount();
    const before = await state(account);
    const key = crypto.randomUUID();
    const first = await post(account, path, body, key);
    expect(first.status).toBe(202);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const afterFirst = await state(account);
    expect(afterFirst.messages).toBe(before.messages + perSend);

    const second = await post(account, path, body, key);
    expect(second.status).toBe(202);
    expect(second.text).toBe(first.text);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await state(account)).toEqual(afterFirst);

    // Without the key, the same body is a new send.
    expect((await api("POST", path, { token: account.token, body })).status).toBe(202);
    expect((await state(account)).messages).toBe(afterFirst.messages + perSend);
  });

  it.each([
    ["/api/v1/sms", SINGLE, "legacy"],
    ["/api/v1/sms/bulk", BULK, "kit"],
  ] as const)(
    "POST %s: a first request that never finished is a final 409 once no request could still be running, and nothing is sent",
    async (path, body, shape) => {
      const account = await seedAccount();
      const requestHash = crypto.createHash("sha256").update(`POST ${path}\n`).update(JSON.stringify(body)).digest("hex");
      const claim = (key: string, startedMinutesAgo: number) =>
        db().idempotencyKey.create({
          data: {
            accountId: account.accountId,
            key,
            requestHash,
            responseStatus: 0,
            responseBody: "",
            createdAt: new Date(Date.now() - startedMinutesAgo * 60_000),
            expiresAt: new Date(Date.now() + 3_600_000),
          },
        });
      const before = await state(account);
      const expectConflict = (call: Awaited<ReturnType<typeof post>>) =>
        shape === "legacy" ? expectLegacyError(call, 409, "ERR_CONFLICT") : expectKitError(call, 409, "CONFLICT");

      const running = crypto.randomUUID();
      await claim(running, 1);
      const wait = await post(account, path, body, running);
      expectConflict(wait);
      expect(wait.headers.get("retry-after")).toBe("1");

      const abandoned = crypto.randomUUID();
      await claim(abandoned, 11);
      const final = await post(account, path, body, abandoned);
      expectConflict(final);
      expect(final.headers.get("retry-after")).toBeNull();
      expect(final.body.error.description).toMatch(/stopped before it answered.*new Idempotency-Key/);
      expect(await state(account)).toEqual(before);
    },
  );

  it("refuses the same key with a different body or endpoint: 422 in each endpoint's shape, nothing sent", async () => {
    const account = await seedAccount();
    const key = crypto.randomUUID();
    expect((await post(account, "/api/v1/sms", SINGLE, key)).status).toBe(202);
    const before = await state(account);
    const changed = await post(account, "/api/v1/sms", { ...SINGLE, message: "Pay day!" }, key);
    expectLegacyError(changed, 422, "ERR_IDEMPOTENCY_KEY_REUSED");
    expect(changed.body.error.description).toMatch(/different request/);
    expectKitError(await post(account, "/api/v1/sms/bulk", BULK, key), 422, "IDEMPOTENCY_KEY_REUSED");
    expect(await state(account)).toEqual(before);
  });

  it("never replays across test and live keys of one account: a sandbox key gets no live token, no live send a test id", async () => {
    const account = await seedAccount();
    const testToken = (await createApiKey({ accountId: account.accountId, name: "sandbox", mode: "test", actor: "test" })).token;
    const key = crypto.randomUUID();
    const created = await api("POST", "/api/v1/api-tokens", {
      token: account.token,
      body: { name: "deploy" },
      headers: { "idempotency-key": key },
    });
    expect(created.status).toBe(201);
    const fromSandbox = await api("POST", "/api/v1/api-tokens", {
      token: testToken,
      body: { name: "deploy" },
      headers: { "idempotency-key": key },
    });
    expect(fromSandbox.status).toBe(422);
    expect(fromSandbox.text).not.toContain(created.body.data.token);
    expect(fromSandbox.headers.get("idempotent-replayed")).toBeNull();

    const sendKey = crypto.randomUUID();
    const testSend = await api("POST", "/api/v1/sms", { token: testToken, body: SINGLE, headers: { "idempotency-key": sendKey } });
    expect(testSend.status).toBe(202);
    const before = await state(account);
    const liveSend = await post(account, "/api/v1/sms", SINGLE, sendKey);
    expectLegacyError(liveSend, 422, "ERR_IDEMPOTENCY_KEY_REUSED");
    expect(liveSend.text).not.toContain(testSend.body.id);
    expect(await state(account)).toEqual(before);
  });

  it("replays a created key's token only to the key that created it; another live key of the account gets 422", async () => {
    const account = await seedAccount();
    const otherLive = (await createApiKey({ accountId: account.accountId, name: "other", actor: "test" })).token;
    const key = crypto.randomUUID();
    const request = { body: { name: "deploy" }, headers: { "idempotency-key": key } };
    const created = await api("POST", "/api/v1/api-tokens", { token: account.token, ...request });
    expect(created.status).toBe(201);
    const fromOther = await api("POST", "/api/v1/api-tokens", { token: otherLive, ...request });
    expectKitError(fromOther, 422, "IDEMPOTENCY_KEY_REUSED");
    expect(fromOther.text).not.toContain(created.body.data.token);
    const again = await api("POST", "/api/v1/api-tokens", { token: account.token, ...request });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.token).toBe(created.body.data.token);
  });

  it("charges once for concurrent duplicates: the others replay or are told the first is in progress", async () => {
    const account = await seedAccount();
    const before = await state(account);
    const key = crypto.randomUUID();
    const calls = await Promise.all(Array.from({ length: 20 }, () => post(account, "/api/v1/sms", SINGLE, key)));
    const accepted = calls.filter((call) => call.status === 202);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(new Set(accepted.map((call) => call.body.id)).size).toBe(1);
    for (const call of calls.filter((call) => call.status !== 202)) {
      expectLegacyError(call, 409, "ERR_CONFLICT");
      expect(call.headers.get("retry-after")).toBe("1");
    }
    const after = await state(account);
    expect(after.messages).toBe(before.messages + 1);
    expect(after.balance).toBe(before.balance - 350n);
    expect((await post(account, "/api/v1/sms", SINGLE, key)).text).toBe(accepted[0].text);
  });

  it("does not keep a failed request's key: the same request succeeds after a top-up", async () => {
    const account = await seedAccount({ balance: 100n });
    const key = crypto.randomUUID();
    expectLegacyError(await post(account, "/api/v1/sms", SINGLE, key), 422, "ERR_INSUFFICIENT_BALANCE");
    expectLegacyError(await post(account, "/api/v1/sms", { ...SINGLE, from: "NOPE" }, key), 400, "ERR_BAD_REQUEST");
    await creditBalance({ accountId: account.accountId, amount: 10_000n, actor: "test" });
    const retried = await post(account, "/api/v1/sms", SINGLE, key);
    expect(retried.status).toBe(202);
    expect((await post(account, "/api/v1/sms", SINGLE, key)).text).toBe(retried.text);
  });

  it("keeps keys per account, and forgets them after 24 hours", async () => {
    const first = await seedAccount({ name: "First" });
    const second = await seedAccount({ name: "Second" });
    const key = crypto.randomUUID();
    const a = await post(first, "/api/v1/sms", SINGLE, key);
    const b = await post(second, "/api/v1/sms", SINGLE, key);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.body.id).not.toBe(b.body.id);

    const stored = await db().idempotencyKey.findUniqueOrThrow({ where: { accountId_key: { accountId: first.accountId, key } } });
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(24 * 60 * 60 * 1000);
    await db().idempotencyKey.update({
      where: { accountId_key: { accountId: first.accountId, key } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const afterExpiry = await post(first, "/api/v1/sms", { ...SINGLE, message: "A new request" }, key);
    expect(afterExpiry.status).toBe(202);
    expect(afterExpiry.body.message).toBe("A new request");
  });

  it.each([
    ["too long", "k".repeat(256)],
    ["with a space", "my key"],
    ["with a non-ASCII character", "clé"],
  ])("400 for a key %s", async (_case, key) => {
    const account = await seedAccount();
    const before = await state(account);
    const call = await api("POST", "/api/v1/sms/bulk", { token: account.token, body: BULK, headers: { "idempotency-key": key } });
    expectKitError(call, 400, "BAD_REQUEST");
    expect(call.body.message).toBe("Invalid Idempotency-Key");
    expect(await state(account)).toEqual(before);
  });
});

describe("Idempotency-Key kept with the send", () => {
  /** Makes every ledger row of the account's key fail inside the send's transaction, through the database. */
  async function refuseHolds(account: SeededAccount): Promise<() => Promise<void>> {
    const actor = `key:${account.keyId}`;
    if (testDatabaseKind() === "sqlite") {
      await sql().exec(
        `CREATE TRIGGER "refuse_holds" BEFORE INSERT ON "LedgerEntry" WHEN NEW."actor" = '${actor}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
      );
      return () => sql().exec(`DROP TRIGGER "refuse_holds"`);
    }
    await sql().exec(
      `CREATE FUNCTION "refuse_holds"() RETURNS trigger AS $$ BEGIN
         IF NEW."actor" = '${actor}' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql;
       CREATE TRIGGER "refuse_holds" BEFORE INSERT ON "LedgerEntry" FOR EACH ROW EXECUTE FUNCTION "refuse_holds"()`,
    );
    return () => sql().exec(`DROP TRIGGER "refuse_holds" ON "LedgerEntry"; DROP FUNCTION "refuse_holds"()`);
  }

  it.each([
    ["/api/v1/sms", SINGLE, 1],
    ["/api/v1/sms/bulk", BULK, 2],
  ])("POST %s: a send rolled back leaves the key free; the retry runs at once and is then replayed", async (path, body, perSend) => {
    const account = await seedAccount();
    const before = await state(account);
    const key = crypto.randomUUID();
    const allowHolds = await refuseHolds(account);
    let failed;
    try {
      failed = await post(account, path, body, key);
    } finally {
      await allowHolds();
    }
    expect(failed.status).toBe(500);
    expect(await state(account)).toEqual(before);
    expect(await db().idempotencyKey.count({ where: { accountId: account.accountId, key } })).toBe(0);

    const retried = await post(account, path, body, key);
    expect(retried.status).toBe(202);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    const replayed = await post(account, path, body, key);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.text).toBe(retried.text);
    expect((await state(account)).messages).toBe(before.messages + perSend);
  });

  it.skipIf(testDatabaseKind() !== "postgres")(
    "a server killed while its send is inside the transaction leaves the key free: the retry on another server runs at once",
    async () => {
      const account = await seedAccount();
      const before = await state(account);
      const key = crypto.randomUUID();
      // The send's first ledger row stalls its transaction (after its key's record is written) until
      // the test ends that backend.
      await sql().exec(
        `CREATE FUNCTION "stall_holds"() RETURNS trigger AS $$ BEGIN
           IF NEW."actor" = 'key:${account.keyId}' THEN PERFORM pg_sleep(3600); END IF; RETURN NEW; END $$ LANGUAGE plpgsql;
         CREATE TRIGGER "stall_holds" BEFORE INSERT ON "LedgerEntry" FOR EACH ROW EXECUTE FUNCTION "stall_holds"()`,
      );
      const doomed = await startApiServer(database(), SERVER_ENV);
      try {
        const request = callApi(doomed.url, "POST", "/api/v1/sms/bulk", {
          token: account.token,
          body: BULK,
          headers: { "idempotency-key": key },
        }).catch(() => null);
        const stalled = `SELECT "pid" FROM pg_stat_activity WHERE "datname" = current_database() AND "wait_event" = 'PgSleep'`;
        while ((await sql().all(stalled)).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        await doomed.kill();
        expect(await request).toBeNull();
        // A backend notices its client is gone only when it next reads from it: end the stalled one.
        await sql().all(`SELECT pg_terminate_backend("pid") FROM (${stalled}) AS s`);
      } finally {
        await doomed.kill();
        await sql().exec(`DROP TRIGGER "stall_holds" ON "LedgerEntry"; DROP FUNCTION "stall_holds"()`);
      }

      const retried = await post(account, "/api/v1/sms/bulk", BULK, key);
      expect(retried.status).toBe(202);
      expect(retried.headers.get("idempotent-replayed")).toBeNull();
      expect((await post(account, "/api/v1/sms/bulk", BULK, key)).text).toBe(retried.text);
      const after = await state(account);
      expect(after.messages).toBe(before.messages + 2);
      expect(after.balance).toBe(before.balance - 350n - 300n);
    },
  );
});
