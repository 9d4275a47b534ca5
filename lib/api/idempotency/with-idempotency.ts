// `Idempotency-Key` for the POST endpoints that create things (single send, bulk send, key creation).
// Exports, to wrap inside withApiKey: withApiKey(withIdempotency(handler)):
// - withIdempotencyKeptWithWork(handler), the sends: the key's record is written in the very
//   transaction that writes the send (lib/db/stores), with the answer it replays. A request that
//   dies before its commit leaves no record, so its retry runs at once; one that committed replays.
//   A duplicate running alongside waits for the first's commit at the record and replays its answer.
// - withIdempotency(handler), key creation: the (account, key) row is claimed first (its primary key
//   is the lock), the handler runs, and a 2xx response is stored; any other outcome releases the
//   key, since nothing was done and the same request may be retried (e.g. after a top-up).
// - No header: the handler runs as usual.
// - The same key and the same request (method, path, body) within 24 hours: the stored response is
//   replayed, status and body byte for byte, with `Idempotent-Replayed: true`; nothing runs again.
// - The same key with a different request, or the same request by a key of the other mode (test or
//   live), or for key creation by another key: IDEMPOTENCY_MISMATCH (422). While the first request is
//   still running: CONFLICT (409, Retry-After 1). A claim older than any request runs (its process
//   died mid-request) is a final CONFLICT without Retry-After: whether the first request took effect
//   is unknown, and running it again could send twice, so the client is told to look first.
import crypto from "node:crypto";
import { sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { parseRowOrNull, type ParsedRow } from "@/lib/db/stores/shared/rows";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { IdempotencyKeyTakenError, type AcceptedSend, type IdempotencyRecord } from "@/lib/messages/commit-sends";
import type { AuthedContext } from "@/lib/api/auth/with-api-key";
import { confirmApiKey } from "@/lib/api/auth/authenticate-api-key";
import { ApiResponse, bodyText } from "@/lib/api/respond";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const PURGE_INTERVAL_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const IN_PROGRESS = 0;
/** Far beyond any request's run (a 100,000-recipient bulk send takes seconds; shutdown waits 15 s). */
const ABANDONED_AFTER_MS = 10 * 60 * 1000;

const STORED_RESPONSE = {
  requestHash: "text",
  responseStatus: "integer",
  responseBody: "text",
  createdAt: "time",
  expiresAt: "time",
} as const;
type StoredResponse = ParsedRow<typeof STORED_RESPONSE>;
type AuthedHandler = (context: AuthedContext) => Promise<ApiResponse>;

/** The request's Idempotency-Key, for a handler whose work writes its record. */
export type IdempotencyClaim = { key: string; requestHash: string; keptForMs: number };
/** A handler given the request's Idempotency-Key claim apart from its context (not copied into a new one). */
type IdempotentHandler = (context: AuthedContext, claim: IdempotencyClaim | null) => Promise<ApiResponse>;

let lastPurge = 0;

/** The request's Idempotency-Key, null without one; a malformed one is refused. */
function idempotencyKeyOf(context: AuthedContext): string | null {
  const key = context.headers.get("idempotency-key");
  if (key === null) return null;
  if (!KEY_PATTERN.test(key)) {
    throw new AppError("BAD_REQUEST", "Invalid Idempotency-Key", {
      description: "The Idempotency-Key header must be 1-255 visible ASCII characters (a UUID is a good choice)",
    });
  }
  purgeExpiredKeys();
  return key;
}

export function withIdempotencyKeptWithWork(handler: IdempotentHandler): AuthedHandler {
  return async (context) => {
    const key = idempotencyKeyOf(context);
    if (key === null) return handler(context, null);
    const accountId = context.auth.accountId;
    const requestHash = hashRequest(context);
    const stored = await readStored(accountId, key, new Date());
    if (stored) return replayConfirmed(context, stored, requestHash);
    try {
      return await handler(context, { key, requestHash, keptForMs: IDEMPOTENCY_TTL_MS });
    } catch (error) {
      if (!(error instanceof IdempotencyKeyTakenError)) throw error;
      // Another request with this key committed first: its answer is this one's.
      const taken = await readStored(accountId, key, new Date());
      if (!taken) throw inProgressError();
      return replayConfirmed(context, taken, requestHash);
    }
  };
}

/**
 * The key's record a send writes with itself, and the answer: made once, from what was accepted,
 * inside the send's transaction when there is a key, and returned as it was stored.
 */
export function answerKeptWithWork(
  claim: IdempotencyClaim | null,
  build: (send: AcceptedSend) => ApiResponse,
): { record: IdempotencyRecord | null; respond: (send: AcceptedSend) => ApiResponse } {
  if (!claim) return { record: null, respond: build };
  let stored: ApiResponse | undefined;
  const record: IdempotencyRecord = {
    key: claim.key,
    requestHash: claim.requestHash,
    keptForMs: claim.keptForMs,
    response: (send) => {
      const response = build(send);
      // A body of chunks is read once: the stored text is what the first answer sends too.
      const body = bodyText(response);
      stored = new ApiResponse(response.status, body, response.headers);
      return { status: response.status, body };
    },
  };
  return { record, respond: (send) => stored ?? build(send) };
}

async function readStored(accountId: string, key: string, now: Date): Promise<StoredResponse | undefined> {
  const row = await readStoredRow(accountId, key);
  return row && row.expiresAt.getTime() > now.getTime() ? row : undefined;
}

async function readStoredRow(accountId: string, key: string): Promise<StoredResponse | null> {
  const row = await sql().get(
    `SELECT "requestHash", "responseStatus", "responseBody", "createdAt", "expiresAt" FROM "IdempotencyKey" WHERE "accountId" = ? AND "key" = ?`,
    [accountId, key],
  );
  return parseRowOrNull(row, STORED_RESPONSE);
}

async function replayConfirmed(context: AuthedContext, stored: StoredResponse, requestHash: string): Promise<ApiResponse> {
  const replayed = replay(stored, requestHash);
  // A replay runs no handler that would re-check a key from the cache (see withApiKey): confirm it.
  await confirmApiKey(context.auth);
  return replayed;
}

export function withIdempotency(handler: AuthedHandler): AuthedHandler {
  return async (context) => {
    const key = idempotencyKeyOf(context);
    if (key === null) return handler(context);
    const accountId = context.auth.accountId;
    const requestHash = hashRequest(context, { byCaller: true });
    const stored = await claimKey(accountId, key, requestHash);
    if (stored) return replayConfirmed(context, stored, requestHash);

    let response: ApiResponse;
    try {
      response = await handler(context);
    } catch (error) {
      await releaseKey(accountId, key);
      throw error;
    }
    if (response.status < 200 || response.status >= 300) {
      await releaseKey(accountId, key);
      return response;
    }
    // A body of chunks is read once: the stored text is what the first answer sends too.
    const body = bodyText(response);
    await sql()
      .run(`UPDATE "IdempotencyKey" SET "responseStatus" = ?, "responseBody" = ? WHERE "accountId" = ? AND "key" = ?`, [
        response.status,
        body,
        accountId,
        key,
      ])
      .catch((error) => context.log.error({ err: error }, "could not store the idempotent response"));
    return body === response.body ? response : new ApiResponse(response.status, body, response.headers);
  };
}

/**
 * What makes two requests the same: method, path and body, and the key's mode. A test key's request
 * is never the same as a live key's, so neither replays the other's answer (a live key's new token
 * to a sandbox credential, a test send's id to a live client); a live request hashes without a mode.
 * `byCaller` (key creation): only the calling key's own request is the same, so a new key's token is
 * replayed to no other key of the account, whatever it may do.
 */
function hashRequest(context: AuthedContext, { byCaller = false } = {}): string {
  const mode = context.auth.mode === "test" ? "test " : "";
  const caller = byCaller ? `key ${context.auth.keyId} ` : "";
  return crypto
    .createHash("sha256")
    .update(`${caller}${mode}${context.request.method} ${new URL(context.request.url).pathname}\n`)
    .update(context.body)
    .digest("hex");
}

/** Claims the key for this request (returns null), or returns the row already holding it. */
async function claimKey(accountId: string, key: string, requestHash: string): Promise<StoredResponse | null> {
  for (;;) {
    const now = new Date();
    const claimed = await sql().run(
      `INSERT INTO "IdempotencyKey" ("accountId", "key", "requestHash", "responseStatus", "responseBody", "createdAt", "expiresAt")
       VALUES (?, ?, ?, ?, '', ?, ?) ON CONFLICT DO NOTHING`,
      [accountId, key, requestHash, IN_PROGRESS, toDbTime(now), toDbTime(new Date(now.getTime() + IDEMPOTENCY_TTL_MS))],
    );
    if (claimed > 0) return null;
    const existing = await readStoredRow(accountId, key);
    if (existing && existing.expiresAt.getTime() > now.getTime()) return existing;
    // Released or expired since the insert was refused: clear an expired row and claim again.
    await sql().run(`DELETE FROM "IdempotencyKey" WHERE "accountId" = ? AND "key" = ? AND "expiresAt" <= ?`, [
      accountId,
      key,
      toDbTime(now),
    ]);
  }
}

function replay(stored: StoredResponse, requestHash: string): ApiResponse {
  if (stored.requestHash !== requestHash) {
    throw new AppError("IDEMPOTENCY_MISMATCH", "Idempotency-Key reused for a different request", {
      description: "This Idempotency-Key was used in the last 24 hours with a different request; use a new key for a new request",
    });
  }
  if (stored.responseStatus === IN_PROGRESS && Date.now() - stored.createdAt.getTime() > ABANDONED_AFTER_MS) {
    throw new AppError("CONFLICT", "The first request with this Idempotency-Key did not finish", {
      description:
        "The first request with this Idempotency-Key stopped before it answered (the server was interrupted); whether it took effect is unknown. Look up your messages and balance before sending again, with a new Idempotency-Key",
    });
  }
  if (stored.responseStatus === IN_PROGRESS) throw inProgressError();
  return new ApiResponse(stored.responseStatus, stored.responseBody, {
    "content-type": "application/json; charset=utf-8",
    "idempotent-replayed": "true",
  });
}

function inProgressError(): AppError {
  return new AppError("CONFLICT", "A request with this Idempotency-Key is in progress", {
    description: "The first request with this Idempotency-Key has not finished; retry shortly to get its response",
    retryAfterSeconds: 1,
  });
}

async function releaseKey(accountId: string, key: string): Promise<void> {
  await sql().run(`DELETE FROM "IdempotencyKey" WHERE "accountId" = ? AND "key" = ? AND "responseStatus" = ?`, [
    accountId,
    key,
    IN_PROGRESS,
  ]);
}

/** Expired keys are deleted at most once a minute per process, off the request path. */
function purgeExpiredKeys(): void {
  const now = Date.now();
  if (now - lastPurge < PURGE_INTERVAL_MS) return;
  lastPurge = now;
  setImmediate(() => {
    sql()
      .run(`DELETE FROM "IdempotencyKey" WHERE "expiresAt" <= ?`, [toDbTime(new Date(now))])
      .catch((error) => logger.warn({ err: error }, "could not purge expired idempotency keys"));
  });
}
