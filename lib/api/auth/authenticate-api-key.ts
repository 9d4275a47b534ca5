// Resolves `Authorization: Bearer <key>` to an account, one of two ways under the same rules:
// - authenticateApiKey(header) reads the key row by its hash (a unique index) on every request, so a
//   revoke is seen by the very next request in every process. Every endpoint but the hot three.
// - authenticateApiKey(header, { cached: true }), for the hot SMS endpoints: a key found active is
//   kept in this process for KEY_CACHE_TTL_MS (by its hash; the key itself is never kept), so the
//   request reads no key row. Revocation stays immediate because those handlers re-read the key's
//   state in the very statement or transaction that does their work (getMessageForKey, commitSends),
//   and every other answer of theirs is confirmed with confirmApiKey (see withApiKey).
// Either way, expiry (a rolled key), the mode prefix and the constant-time hash comparison are
// checked on every request.
import { sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { hashesEqual, hashToken, keyModes, parseToken, type KeyMode } from "@/lib/keys/token";
import { parseOneOf, parseRowOrNull } from "@/lib/db/stores/shared/rows";
import { findUnusableApiKeys, isApiKeyUsable, isKeyExpired, unknownApiKeyError } from "@/lib/keys/find-unusable-api-keys";

export type ApiKeyAuth = {
  keyId: string;
  accountId: string;
  mode: KeyMode;
  rateLimitPerSecond: number | null;
  /** SHA-256 of the key, the cache's index. */
  tokenHash: string;
  /** The key's state was read up to KEY_CACHE_TTL_MS ago, not by this request. */
  fromCache: boolean;
};

/** What the cache keeps of a key found active: no key material but its hash. */
type KeyRecord = Omit<ApiKeyAuth, "fromCache"> & { expiresAt: number | null; readAt: number };

export const MISSING_AUTHENTICATION = "Missing authentication: send the header Authorization: Bearer <API_KEY>";

/** How stale a cached key's account rate limit and expiry may be; its revocation never is (see above). */
export const KEY_CACHE_TTL_MS = 30_000;
const KEY_CACHE_MAX_ENTRIES = 10_000;
/** Keys found active, by hash, in the order they were read (the oldest read is evicted first). */
const keyCache = new Map<string, KeyRecord>();

const LAST_USED_WRITE_INTERVAL_MS = 60_000;
const lastUsedWrites = new Map<string, number>();

function unauthorized(description: string, message = "Unauthorized"): AppError {
  return new AppError("UNAUTHORIZED", message, { description });
}

export async function authenticateApiKey(authorization: string | null, options: { cached?: boolean } = {}): Promise<ApiKeyAuth> {
  // The scheme alone sends no key either, as `Bearer $KEY` with $KEY unset does.
  if (!authorization || /^\s*(Bearer\s*)?$/i.test(authorization)) throw unauthorized(MISSING_AUTHENTICATION, MISSING_AUTHENTICATION);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw unauthorized("The Authorization header must be: Bearer <API_KEY>");
  const token = match[1];
  // Well-formedness and checksum first: a mistyped or invented key costs no database read.
  const parsed = parseToken(token);
  if (!parsed) throw unauthorized("The API key is malformed");
  const tokenHash = hashToken(token);
  const now = Date.now();
  const cached = options.cached ? findCachedKey(tokenHash, now) : undefined;
  const record = cached ?? (await readActiveKey(tokenHash, now));
  // The prefix says what the key is: a tmr_test_ key is never honoured as a live one, whatever the row says.
  if (!record || !hashesEqual(record.tokenHash, tokenHash) || isKeyExpired(record.expiresAt, now) || record.mode !== parsed.mode) {
    keyCache.delete(tokenHash);
    throw unknownApiKeyError();
  }
  if (options.cached && !cached) cacheKey(record);
  touchLastUsed(record.keyId);
  const { keyId, accountId, mode, rateLimitPerSecond } = record;
  return { keyId, accountId, mode, rateLimitPerSecond, tokenHash, fromCache: cached !== undefined };
}

/**
 * For a request whose key came from the cache and whose answer was not made under its handler's own
 * key check (an error, a 429, a replayed response): reads the key's state now, and refuses a key
 * revoked or expired since it was cached, exactly as an uncached authentication would have.
 */
export async function confirmApiKey(auth: ApiKeyAuth): Promise<void> {
  if (!auth.fromCache) return;
  const unusable = await findUnusableApiKeys(sql(), [auth.keyId], new Date());
  if (unusable.size === 0) return;
  forgetApiKey(auth);
  throw unknownApiKeyError();
}

/** Drops a key from this process's cache, once a handler has found it revoked. */
export function forgetApiKey(auth: Pick<ApiKeyAuth, "tokenHash">): void {
  keyCache.delete(auth.tokenHash);
}

const ACTIVE_KEY_ROW = {
  id: "text",
  accountId: "text",
  mode: "text",
  active: "boolean",
  expiresAt: "time?",
  tokenHash: "text",
  rateLimitPerSecond: "integer?",
} as const;

async function readActiveKey(tokenHash: string, now: number): Promise<KeyRecord | undefined> {
  const row = parseRowOrNull(
    await sql().get(
      `SELECT k."id", k."accountId", k."mode", k."active", k."expiresAt", k."tokenHash", a."rateLimitPerSecond"
       FROM "ApiKey" k JOIN "Account" a ON a."id" = k."accountId" WHERE k."tokenHash" = ?`,
      [tokenHash],
    ),
    ACTIVE_KEY_ROW,
  );
  if (!row || !isApiKeyUsable(row, now)) return undefined;
  return {
    keyId: row.id,
    accountId: row.accountId,
    mode: parseOneOf(row.mode, keyModes, "mode"),
    rateLimitPerSecond: row.rateLimitPerSecond,
    tokenHash: row.tokenHash,
    expiresAt: row.expiresAt?.getTime() ?? null,
    readAt: now,
  };
}

function findCachedKey(tokenHash: string, now: number): KeyRecord | undefined {
  const record = keyCache.get(tokenHash);
  if (!record) return undefined;
  const age = now - record.readAt;
  if (age >= 0 && age < KEY_CACHE_TTL_MS) return record;
  keyCache.delete(tokenHash); // stale, or the clock stepped back: read it again
  return undefined;
}

function cacheKey(record: KeyRecord): void {
  keyCache.delete(record.tokenHash); // re-read: it moves to the end of the eviction order
  keyCache.set(record.tokenHash, record);
  if (keyCache.size > KEY_CACHE_MAX_ENTRIES) keyCache.delete(keyCache.keys().next().value!);
}

/**
 * Records LastUsedAt off the response path, at most once a minute per key: this process asks at most
 * once a minute, and the conditional UPDATE makes it once a minute across all processes too.
 */
function touchLastUsed(keyId: string): void {
  const now = Date.now();
  if (now - (lastUsedWrites.get(keyId) ?? -Infinity) < LAST_USED_WRITE_INTERVAL_MS) return;
  lastUsedWrites.set(keyId, now);
  setImmediate(() => {
    sql()
      .run(`UPDATE "ApiKey" SET "lastUsedAt" = ? WHERE "id" = ? AND ("lastUsedAt" IS NULL OR "lastUsedAt" <= ?)`, [
        toDbTime(new Date(now)),
        keyId,
        toDbTime(new Date(now - LAST_USED_WRITE_INTERVAL_MS)),
      ])
      .catch((error) => logger.warn({ err: error, keyId }, "could not record key use"));
  });
}
