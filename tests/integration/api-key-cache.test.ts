// The key cache of the hot SMS endpoints (authenticateApiKey with { cached: true }), in this process on
// a real database: what it keeps (keys found active, by hash, at most 10,000), for how long (30 s, then
// the key row is read again), and that expiry is still exact from the cache. Revocation through the
// endpoints and across processes is tests/integration/revocation.test.ts.
import crypto from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db, sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { insertRows } from "@/lib/db/insert-rows";
import { AppError } from "@/lib/errors";
import { authenticateApiKey, confirmApiKey, KEY_CACHE_TTL_MS } from "@/lib/api/auth/authenticate-api-key";
import { findUnusableApiKeys } from "@/lib/keys/find-unusable-api-keys";
import { createApiKey } from "@/lib/keys/create-api-key";
import { revokeApiKey } from "@/lib/keys/revoke-api-key";
import { rollApiKey } from "@/lib/keys/roll-api-key";
import { generateToken, hashToken } from "@/lib/keys/token";
import { useTestDatabase } from "../helpers/test-database";
import { seedAccount, type SeededAccount } from "../helpers/api-test-server";

useTestDatabase();
let account: SeededAccount;

beforeAll(async () => {
  account = await seedAccount();
});

afterEach(() => {
  vi.useRealTimers();
});

const cached = (token: string) => authenticateApiKey(`Bearer ${token}`, { cached: true });
const newKey = (name: string) => createApiKey({ accountId: account.accountId, name, actor: "test" });

/** The refusal's description, or "accepted". */
const outcome = (authenticating: Promise<unknown>) =>
  authenticating.then(
    () => "accepted",
    (error) => (error instanceof AppError ? `${error.code}: ${error.description}` : String(error)),
  );
const UNKNOWN_KEY = "UNAUTHORIZED: The API key is unknown or revoked";

describe("the key cache", () => {
  it("keeps a key found active, by its hash only: the next request reads no key row", async () => {
    const key = await newKey("kept");
    const first = await cached(key.token);
    expect(first).toMatchObject({
      keyId: key.id,
      accountId: account.accountId,
      mode: "live",
      tokenHash: hashToken(key.token),
      fromCache: false,
    });
    expect(await cached(key.token)).toEqual({ ...first, fromCache: true });
    expect(JSON.stringify(first)).not.toContain(key.token.slice(12));
    // The uncached authentication reads the row every time, cache or not.
    expect((await authenticateApiKey(`Bearer ${key.token}`)).fromCache).toBe(false);
  });

  it("never keeps an unknown or revoked key", async () => {
    const unknown = generateToken("live");
    expect(await outcome(cached(unknown))).toBe(UNKNOWN_KEY);
    const revoked = await newKey("revoked");
    await revokeApiKey({ accountId: account.accountId, keyId: revoked.id, actor: "test" });
    expect(await outcome(cached(revoked.token))).toBe(UNKNOWN_KEY);
    // Made usable behind the cache's back (no API does this), each is read from its row, so neither was kept.
    await db().apiKey.update({ where: { id: revoked.id }, data: { active: true, revokedAt: null } });
    await db().apiKey.create({ data: { accountId: account.accountId, name: "late", tokenHash: hashToken(unknown), mode: "live" } });
    expect((await cached(revoked.token)).fromCache).toBe(false);
    expect((await cached(unknown)).fromCache).toBe(false);
  });

  it("reads a cached key again after 30 s, so a changed account rate limit applies", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const limited = await seedAccount({ name: "Limited" });
    expect((await cached(limited.token)).rateLimitPerSecond).toBeNull();
    await db().account.update({ where: { id: limited.accountId }, data: { rateLimitPerSecond: 5 } });
    vi.advanceTimersByTime(KEY_CACHE_TTL_MS - 1);
    expect(await cached(limited.token)).toMatchObject({ rateLimitPerSecond: null, fromCache: true });
    vi.advanceTimersByTime(1);
    expect(await cached(limited.token)).toMatchObject({ rateLimitPerSecond: 5, fromCache: false });
  });

  it("refuses a rolled key from the cache at the very moment its grace period ends", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const rolled = await newKey("rolled");
    const { old } = await rollApiKey({ accountId: account.accountId, keyId: rolled.id, grace: "1h", actor: "test" });
    const expiresAt = old.expiresAt!.getTime();
    // Read 10 s before the end of the grace period, then served from the cache (no key row read) until it ends.
    vi.setSystemTime(expiresAt - 10_000);
    expect((await cached(rolled.token)).fromCache).toBe(false);
    vi.setSystemTime(expiresAt - 1);
    expect((await cached(rolled.token)).fromCache).toBe(true);
    vi.setSystemTime(expiresAt);
    expect(await outcome(cached(rolled.token))).toBe(UNKNOWN_KEY);
  });

  it("confirmApiKey refuses a cached key revoked since it was read, and drops it from the cache", async () => {
    const key = await newKey("confirmed");
    await cached(key.token);
    const auth = await cached(key.token);
    expect(auth.fromCache).toBe(true);
    await confirmApiKey(auth);
    await revokeApiKey({ accountId: account.accountId, keyId: key.id, actor: "test" });
    expect(await outcome(confirmApiKey(auth))).toBe(UNKNOWN_KEY);
    // Dropped: the next request reads the row, and is refused there.
    await db().apiKey.update({ where: { id: key.id }, data: { active: true } });
    expect((await cached(key.token)).fromCache).toBe(false);
  });

  it("holds at most 10,000 keys, dropping the one read longest ago", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() }); // all within one TTL however long the reads take
    const tokens = Array.from({ length: 10_001 }, () => generateToken("live"));
    const at = toDbTime(new Date());
    await sql().transaction((tx) =>
      insertRows(
        tx,
        "ApiKey",
        ["id", "accountId", "name", "tokenHash", "mode", "active", "createdAt"],
        tokens.map((token, index) => [crypto.randomUUID(), account.accountId, `bulk ${index}`, hashToken(token), "live", true, at]),
      ),
    );
    for (const token of tokens) await cached(token);
    expect((await cached(tokens[0])).fromCache).toBe(false); // dropped when the 10,001st came in; read again, it drops tokens[1]
    expect((await cached(tokens[2])).fromCache).toBe(true);
    expect((await cached(tokens[10_000])).fromCache).toBe(true);
  });

  it("a revoke waits for a send transaction that has read the key as usable, so no send commits after it", async () => {
    const key = await createApiKey({ accountId: account.accountId, name: "racing", actor: "test" });
    let revoked: Promise<boolean> | undefined;
    let revokeDone = false;
    await sql().transaction(async (tx) => {
      expect(await findUnusableApiKeys(tx, [key.id], new Date(), { holdUntilCommit: true })).toEqual(new Set());
      revoked = revokeApiKey({ accountId: account.accountId, keyId: key.id, actor: "test" });
      void revoked.then(() => (revokeDone = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Without the hold the revoke would have committed by now, under the send's feet.
      expect(revokeDone).toBe(false);
    });
    expect(await revoked).toBe(true);
    expect(await findUnusableApiKeys(sql(), [key.id], new Date())).toEqual(new Set([key.id]));
  });
});
