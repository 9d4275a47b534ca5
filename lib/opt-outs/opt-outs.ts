// An account's opt-out list: numbers its sends never go to (lib/messages/opt-out-check.ts refuses
// them). One list per account, shared by its test and live keys and its members. Numbers are kept in
// E.164 however they were written; each add and remove is an audit event with its actor, written in
// the same transaction as the change.
import { randomUUID } from "node:crypto";
import { sql } from "@/lib/db/client";
import { fromDbTime, toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { readOptedOut } from "@/lib/db/stores/shared/opt-outs";
import { parseRowOrNull, parseRows } from "@/lib/db/stores/shared/rows";
import { emitAccountEvent } from "@/lib/webhooks/account-events";
import { AppError } from "@/lib/errors";
import { parseMsisdn } from "@/lib/messages/msisdn";
import { isStorableTime } from "@/lib/model/storable-time";
import { isStorableText } from "@/lib/text";

export type OptOut = { number: string; actor: string; createdAt: Date };
export type OptOutPage = { optOuts: OptOut[]; nextCursor: string | null };

export const OPT_OUT_ADDED = "opt_out.added";
export const OPT_OUT_REMOVED = "opt_out.removed";
export const MAX_OPT_OUT_PAGE = 500;

/** Which of these E.164 numbers are on the account's list. */
export function findOptedOut(accountId: string, numbers: readonly string[]): Promise<Set<string>> {
  return readOptedOut(sql(), accountId, numbers);
}

/** The number in E.164, or a VALIDATION_ERROR naming `field`. */
function parseOptOutNumber(raw: unknown, field = "number"): string {
  if (typeof raw !== "string") throw AppError.validation([{ field, description: "must be a phone number as a string" }]);
  const parsed = parseMsisdn(raw);
  if (!parsed.ok) throw AppError.validation([{ field, description: parsed.reason }]);
  return parsed.recipient.to;
}

const OPT_OUT_ROW = { number: "text", actor: "text", createdAt: "time" } as const;

/** Each change is an audit event and an `opt_out.changed` event for the account's webhook endpoints, in its transaction. */
async function recordChange(tx: SqlExecutor, accountId: string, actor: string, action: string, number: string, at: string): Promise<void> {
  await tx.run(
    `INSERT INTO "AuditEvent" ("accountId", "actor", "action", "targetType", "targetId", "data", "createdAt") VALUES (?, ?, ?, 'opt_out', ?, '{}', ?)`,
    [accountId, actor, action, number, at],
  );
  const changedAt = fromDbTime(at);
  await emitAccountEvent(
    accountId,
    "opt_out.changed",
    { number, opted_out: action === OPT_OUT_ADDED, source: actor, changed_at: changedAt.toISOString() },
    { executor: tx, at: changedAt },
  );
}

async function insertOptOut(tx: SqlExecutor, accountId: string, number: string, actor: string, at: string): Promise<boolean> {
  const inserted = await tx.run(
    `INSERT INTO "OptOut" ("id", "accountId", "number", "actor", "createdAt") VALUES (?, ?, ?, ?, ?) ON CONFLICT ("accountId", "number") DO NOTHING`,
    [randomUUID(), accountId, number, actor, at],
  );
  if (inserted === 0) return false;
  await recordChange(tx, accountId, actor, OPT_OUT_ADDED, number, at);
  return true;
}

async function readOptOut(executor: SqlExecutor, accountId: string, number: string): Promise<OptOut | undefined> {
  const row = await executor.get(`SELECT "number", "actor", "createdAt" FROM "OptOut" WHERE "accountId" = ? AND "number" = ?`, [
    accountId,
    number,
  ]);
  return parseRowOrNull(row, OPT_OUT_ROW) ?? undefined;
}

/**
 * Adds a number to the account's list. Idempotent: a number already on it is left as it was (its
 * first actor and time kept, no audit event) and `created` is false.
 */
export async function addOptOut(input: {
  accountId: string;
  number: unknown;
  actor: string;
}): Promise<{ optOut: OptOut; created: boolean }> {
  const number = parseOptOutNumber(input.number);
  return sql().transaction(async (tx) => {
    const created = await insertOptOut(tx, input.accountId, number, input.actor, toDbTime(new Date()));
    const optOut = await readOptOut(tx, input.accountId, number);
    return { optOut: optOut!, created };
  });
}

/** Removes a number from the account's list; NOT_FOUND when it is not on it. */
export async function removeOptOut(input: { accountId: string; number: unknown; actor: string }): Promise<void> {
  const number = parseOptOutNumber(input.number);
  await sql().transaction(async (tx) => {
    const removed = await tx.run(`DELETE FROM "OptOut" WHERE "accountId" = ? AND "number" = ?`, [input.accountId, number]);
    if (removed === 0) throw AppError.notFound("Opt-out");
    await recordChange(tx, input.accountId, input.actor, OPT_OUT_REMOVED, number, toDbTime(new Date()));
  });
}

export type ImportRow = { line: number; input: string; outcome: "added" | "already" | "invalid"; number?: string; reason?: string };

/** Adds many numbers in one transaction (a CSV import); each row's outcome in input order. */
export async function importOptOuts(input: { accountId: string; numbers: readonly string[]; actor: string }): Promise<ImportRow[]> {
  const at = toDbTime(new Date());
  return sql().transaction(async (tx) => {
    const rows: ImportRow[] = [];
    for (const [index, raw] of input.numbers.entries()) {
      const parsed = parseMsisdn(raw);
      if (!parsed.ok) {
        rows.push({ line: index + 1, input: raw, outcome: "invalid", reason: parsed.reason });
        continue;
      }
      const created = await insertOptOut(tx, input.accountId, parsed.recipient.to, input.actor, at);
      rows.push({ line: index + 1, input: raw, outcome: created ? "added" : "already", number: parsed.recipient.to });
    }
    return rows;
  });
}

type Cursor = { createdAt: string; number: string };

function encodeCursor(optOut: OptOut): string {
  return Buffer.from(JSON.stringify([optOut.createdAt.toISOString(), optOut.number])).toString("base64url");
}

export const NOT_AN_OPT_OUT_CURSOR = "is not a cursor this endpoint gave";

/** The cursor a page link carries, or null when it is not one this module made. */
export function decodeOptOutCursor(cursor: string): Cursor | null {
  try {
    const [createdAt, number] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof createdAt === "string" && typeof number === "string" && isStorableTime(new Date(createdAt)) && isStorableText(number)) {
      return { createdAt: toDbTime(new Date(createdAt)), number };
    }
  } catch {
    // not JSON: not a cursor
  }
  return null;
}

function decodeCursor(cursor: string): Cursor {
  const decoded = decodeOptOutCursor(cursor);
  if (!decoded) throw AppError.validation([{ field: "cursor", description: NOT_AN_OPT_OUT_CURSOR }]);
  return decoded;
}

/** The account's list, newest first, a page at a time; `nextCursor` is null on the last page. */
export async function listOptOuts(input: { accountId: string; limit: number; cursor?: string | null }): Promise<OptOutPage> {
  const after = input.cursor ? decodeCursor(input.cursor) : undefined;
  const where = after ? ` AND ("createdAt" < ? OR ("createdAt" = ? AND "number" < ?))` : "";
  const rows = await sql().all(
    `SELECT "number", "actor", "createdAt" FROM "OptOut" WHERE "accountId" = ?${where} ORDER BY "createdAt" DESC, "number" DESC LIMIT ?`,
    [input.accountId, ...(after ? [after.createdAt, after.createdAt, after.number] : []), input.limit + 1],
  );
  const optOuts = parseRows(rows.slice(0, input.limit), OPT_OUT_ROW);
  return { optOuts, nextCursor: rows.length > input.limit ? encodeCursor(optOuts[optOuts.length - 1]) : null };
}

/** Every number of the account's list, newest first (the CSV export). */
export async function listAllOptOuts(accountId: string): Promise<OptOut[]> {
  const rows = await sql().all(
    `SELECT "number", "actor", "createdAt" FROM "OptOut" WHERE "accountId" = ? ORDER BY "createdAt" DESC, "number" DESC`,
    [accountId],
  );
  return parseRows(rows, OPT_OUT_ROW);
}
