// Rows read with raw SQL (lib/db/sql.ts) parsed into typed values at the store's edge: the engines
// hand back timestamps, booleans, integers and BIGINTs in different JavaScript types (SQLite: ISO
// text, 0/1, numbers; PostgreSQL: Dates, booleans, strings for BIGINT and COUNT), and a row that is
// not what its statement says fails here, not in the domain.
import type { Message } from "@/lib/db/generated/sqlite";
import { fromDbTime, type Row } from "@/lib/db/sql";
import type { DeliveredMessage } from "../types";

export type { Message };

/** What a column holds: text, a boolean, an integer (a BIGINT as money, or an INTEGER or COUNT as a number), a time; `?`: or null. */
export type ColumnType = "text" | "text?" | "boolean" | "bigint" | "bigint?" | "integer" | "integer?" | "time" | "time?";

type ColumnValue<T extends ColumnType> = T extends "text"
  ? string
  : T extends "text?"
    ? string | null
    : T extends "boolean"
      ? boolean
      : T extends "bigint"
        ? bigint
        : T extends "bigint?"
          ? bigint | null
          : T extends "integer"
            ? number
            : T extends "integer?"
              ? number | null
              : T extends "time"
                ? Date
                : Date | null;

export type RowShape = Readonly<Record<string, ColumnType>>;
export type ParsedRow<S extends RowShape> = { -readonly [K in keyof S]: ColumnValue<S[K]> };

/** A row as `shape` says its columns are; throws naming the column that is not. */
export function parseRow<S extends RowShape>(row: Row, shape: S): ParsedRow<S> {
  const parsed: Record<string, unknown> = {};
  for (const [column, type] of Object.entries(shape)) parsed[column] = parseColumn(row, column, type);
  return parsed as ParsedRow<S>;
}

/** Each row as `shape` says. */
export function parseRows<S extends RowShape>(rows: readonly Row[], shape: S): ParsedRow<S>[] {
  return rows.map((row) => parseRow(row, shape));
}

/** The row as `shape` says, or null when the statement returned none. */
export function parseRowOrNull<S extends RowShape>(row: Row | undefined, shape: S): ParsedRow<S> | null {
  return row ? parseRow(row, shape) : null;
}

/** A text column's value as one of `allowed`; throws naming the column when it is not. */
export function parseOneOf<T extends string>(value: string, allowed: readonly T[], column: string): T {
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) throw new TypeError(`column ${column}: expected one of ${allowed.join(", ")}, got ${value}`);
  return found;
}

function parseColumn(row: Row, column: string, type: ColumnType): unknown {
  const value = row[column];
  if (type.endsWith("?") && (value === null || value === undefined)) return null;
  switch (type) {
    case "text":
    case "text?":
      if (typeof value === "string") return value;
      break;
    case "boolean":
      if (value === true || value === 1) return true;
      if (value === false || value === 0) return false;
      break;
    case "bigint":
    case "bigint?":
      if (typeof value === "bigint") return value;
      if (typeof value === "number" || (typeof value === "string" && /^-?\d+$/.test(value))) return BigInt(value);
      break;
    case "integer":
    case "integer?":
      if (typeof value === "number" && Number.isInteger(value)) return value;
      if (typeof value === "bigint" || (typeof value === "string" && /^-?\d+$/.test(value))) return Number(value);
      break;
    case "time":
    case "time?":
      if (value instanceof Date || typeof value === "string") return fromDbTime(value);
      break;
  }
  throw new TypeError(`column ${column}: expected ${type}, got ${value === null ? "null" : typeof value}`);
}

const MESSAGE_ROW = {
  id: "text",
  accountId: "text",
  apiKeyId: "text?",
  userId: "text?",
  bulkSendId: "text?",
  to: "text",
  body: "text",
  senderId: "text",
  operator: "text",
  charge: "bigint",
  currency: "text",
  segments: "integer",
  encoding: "text",
  status: "text",
  operatorResponse: "text",
  webhookUrl: "text?",
  test: "boolean",
  attempts: "integer",
  mayBeAtCarrier: "boolean",
  carrierMessageId: "text?",
  nextAttemptAt: "time",
  leaseOwner: "text?",
  leaseUntil: "time?",
  lastError: "text?",
  receivedAt: "time",
  createdAt: "time",
  updatedAt: "time",
  dispatchedAt: "time?",
  deliveredAt: "time?",
  finishedAt: "time?",
  priority: "text",
  sendAt: "time?",
  validityPeriod: "integer?",
  expiresAt: "time?",
  turn: "bigint?",
} as const satisfies Record<keyof Message, ColumnType>;

/** A whole Message row (`SELECT *` or `RETURNING *`), as the Prisma Client would return it. */
export function parseMessageRow(row: Row): Message {
  return parseRow(row, MESSAGE_ROW);
}

/** The id column of a row. */
export function parseId(row: Row): string {
  return parseRow(row, { id: "text" }).id;
}

const DELIVERED_MESSAGE = {
  id: "text",
  accountId: "text",
  operator: "text",
  webhookUrl: "text?",
  test: "boolean",
  dispatchedAt: "time?",
} as const;

/** A message a receipt delivered. */
export function parseDeliveredMessage(row: Row): DeliveredMessage {
  return parseRow(row, DELIVERED_MESSAGE);
}
