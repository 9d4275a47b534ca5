// Rows read with raw SQL (lib/db/sql.ts) parsed into typed values at the store's edge: the engines
// hand back timestamps, booleans, integers and BIGINTs in different JavaScript types (SQLite: ISO
// text, 0/1, numbers; PostgreSQL: Dates, booleans, strings for BIGINT and COUNT), and a row that is
// not what its statement says fails here, not in the domain.
import type { Message } from "@/lib/db/generated/sqlite";
import { fromDbTime, type Row } from "@/lib/db/sql";
import type { DeliveredMessage } from "../types";

export type { Message };

function text(row: Row, column: string): string {
  const value = row[column];
  if (typeof value !== "string") throw new TypeError(`column ${column}: expected text, got ${typeof value}`);
  return value;
}

function textOrNull(row: Row, column: string): string | null {
  return row[column] === null || row[column] === undefined ? null : text(row, column);
}

function bool(row: Row, column: string): boolean {
  const value = row[column];
  if (value === true || value === 1) return true;
  if (value === false || value === 0) return false;
  throw new TypeError(`column ${column}: expected a boolean, got ${String(value)}`);
}

/** A BIGINT (money: ten-thousandths of the currency) or a COUNT: numbers, strings or bigints by engine. */
function bigint(row: Row, column: string): bigint {
  const value = row[column];
  if (typeof value === "bigint") return value;
  if (typeof value === "number" || (typeof value === "string" && /^-?\d+$/.test(value))) return BigInt(value);
  throw new TypeError(`column ${column}: expected an integer, got ${String(value)}`);
}

function integer(row: Row, column: string): number {
  return Number(bigint(row, column));
}

function integerOrNull(row: Row, column: string): number | null {
  return row[column] === null || row[column] === undefined ? null : integer(row, column);
}

function time(row: Row, column: string): Date {
  const value = row[column];
  if (!(value instanceof Date) && typeof value !== "string") throw new TypeError(`column ${column}: expected a time, got ${String(value)}`);
  return fromDbTime(value);
}

function timeOrNull(row: Row, column: string): Date | null {
  return row[column] === null || row[column] === undefined ? null : time(row, column);
}

/** A whole Message row (`SELECT *` or `RETURNING *`), as the Prisma Client would return it. */
export function parseMessageRow(row: Row): Message {
  return {
    id: text(row, "id"),
    accountId: text(row, "accountId"),
    apiKeyId: textOrNull(row, "apiKeyId"),
    userId: textOrNull(row, "userId"),
    bulkSendId: textOrNull(row, "bulkSendId"),
    to: text(row, "to"),
    body: text(row, "body"),
    senderId: text(row, "senderId"),
    operator: text(row, "operator"),
    charge: bigint(row, "charge"),
    currency: text(row, "currency"),
    segments: integer(row, "segments"),
    encoding: text(row, "encoding"),
    status: text(row, "status"),
    operatorResponse: text(row, "operatorResponse"),
    webhookUrl: textOrNull(row, "webhookUrl"),
    test: bool(row, "test"),
    attempts: integer(row, "attempts"),
    carrierMessageId: textOrNull(row, "carrierMessageId"),
    nextAttemptAt: time(row, "nextAttemptAt"),
    leaseOwner: textOrNull(row, "leaseOwner"),
    leaseUntil: timeOrNull(row, "leaseUntil"),
    lastError: textOrNull(row, "lastError"),
    receivedAt: time(row, "receivedAt"),
    createdAt: time(row, "createdAt"),
    updatedAt: time(row, "updatedAt"),
    dispatchedAt: timeOrNull(row, "dispatchedAt"),
    deliveredAt: timeOrNull(row, "deliveredAt"),
    finishedAt: timeOrNull(row, "finishedAt"),
    priority: text(row, "priority"),
    sendAt: timeOrNull(row, "sendAt"),
    validityPeriod: integerOrNull(row, "validityPeriod"),
    expiresAt: timeOrNull(row, "expiresAt"),
    turnAt: timeOrNull(row, "turnAt"),
  };
}

/** The id column of a row. */
export function parseId(row: Row): string {
  return text(row, "id");
}

/** A message a receipt delivered: id, accountId, operator, webhookUrl, test. */
export function parseDeliveredMessage(row: Row): DeliveredMessage {
  return {
    id: text(row, "id"),
    accountId: text(row, "accountId"),
    operator: text(row, "operator"),
    webhookUrl: textOrNull(row, "webhookUrl"),
    test: bool(row, "test"),
  };
}

/** The amount column of a row (a ledger entry's), or null when there is no row. */
export function parseAmountOrNull(row: Row | undefined): bigint | null {
  return row ? bigint(row, "amount") : null;
}
