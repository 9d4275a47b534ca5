// Resolves `Authorization: Bearer <key>` to an account. No cache: every request reads the key row
// by its hash (a unique index), so a revoke is seen by the very next request in every process.
import { sql } from "@/lib/db/client";
import { fromDbTimeOrNull, toDbTime } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { hashesEqual, hashToken, parseToken, type KeyMode } from "@/lib/api/keys/token";

export type ApiKeyAuth = { keyId: string; accountId: string; mode: KeyMode; rateLimitPerSecond: number | null };

export const MISSING_AUTHENTICATION = "Missing authentication: send the header Authorization: Bearer <API_KEY>";
const UNKNOWN_KEY = "The API key is unknown or revoked";

const LAST_USED_WRITE_INTERVAL_MS = 60_000;
const lastUsedWrites = new Map<string, number>();

function unauthorized(description: string, message = "Unauthorized"): AppError {
  return new AppError("UNAUTHORIZED", message, { description });
}

export async function authenticateApiKey(authorization: string | null): Promise<ApiKeyAuth> {
  if (!authorization || !authorization.trim()) throw unauthorized(MISSING_AUTHENTICATION, MISSING_AUTHENTICATION);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw unauthorized("The Authorization header must be: Bearer <API_KEY>");
  const token = match[1];
  // Well-formedness and checksum first: a mistyped or invented key costs no database read.
  const parsed = parseToken(token);
  if (!parsed) throw unauthorized("The API key is malformed");
  const tokenHash = hashToken(token);
  const row = await sql().get<{
    id: string; accountId: string; mode: string; active: number | boolean; expiresAt: unknown; tokenHash: string; rateLimitPerSecond: number | null;
  }>(
    `SELECT k."id", k."accountId", k."mode", k."active", k."expiresAt", k."tokenHash", a."rateLimitPerSecond"
     FROM "ApiKey" k JOIN "Account" a ON a."id" = k."accountId" WHERE k."tokenHash" = ?`,
    [tokenHash],
  );
  if (!row || !hashesEqual(row.tokenHash, tokenHash)) throw unauthorized(UNKNOWN_KEY);
  const expiresAt = fromDbTimeOrNull(row.expiresAt);
  if (!row.active || (expiresAt && expiresAt.getTime() <= Date.now())) throw unauthorized(UNKNOWN_KEY);
  // The prefix says what the key is: a tmr_test_ key is never honoured as a live one, whatever the row says.
  if (row.mode !== parsed.mode) throw unauthorized(UNKNOWN_KEY);
  touchLastUsed(row.id);
  return { keyId: row.id, accountId: row.accountId, mode: parsed.mode, rateLimitPerSecond: row.rateLimitPerSecond };
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
