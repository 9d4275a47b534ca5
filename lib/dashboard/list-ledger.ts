// The account's ledger, newest first, with keyset pagination on the entry id (the primary key). A
// bulk send's entries read as one item (its holds and its refunds summed) placed at its first hold,
// unless every row is asked for; single sends, credits and adjustments keep their own rows.
import { z } from "zod";
import { db, sql } from "@/lib/db/client";
import { parseRows } from "@/lib/db/stores/shared/rows";
import type { Prisma } from "@/lib/db/generated/sqlite";
import { csvLine, csvNumber } from "@/lib/csv";
import { formatAmount } from "@/lib/money";
import { dayParam, dayRange, parseFilters, type ParsedFilters } from "./filters";
import { describeActors } from "./list-audit-events";

export const LEDGER_PAGE_SIZE = 50;

const ledgerFilterFields = {
  kind: z.enum(["credit", "hold", "release", "adjustment"], "choose one of the listed kinds"),
  from: dayParam,
  to: dayParam,
  rows: z.enum(["each", "grouped"], "choose every row or bulk sends grouped"),
  before: z.coerce.number("this page link is not valid; start from the newest").int().positive(),
};

const ledgerFilterLabels = { kind: "Kind", from: "From", to: "To", rows: "Rows", before: "Page" };

export type LedgerFilters = ParsedFilters<typeof ledgerFilterFields>["filters"];

export function parseLedgerFilters(params: Record<string, string | undefined>): ParsedFilters<typeof ledgerFilterFields> {
  return parseFilters(ledgerFilterFields, ledgerFilterLabels, params, { dayRange: ["from", "to"] });
}

export type LedgerRow = {
  type: "entry";
  id: number;
  kind: string;
  amount: bigint;
  balanceAfter: bigint;
  messageId: string | null;
  bulkSendId: string | null;
  reason: string;
  actor: string;
  createdAt: Date;
};

/** One bulk send's entries: `id` and `createdAt` are its first hold's, amounts signed as in the ledger. */
export type LedgerBulkGroup = {
  type: "bulk";
  id: number;
  bulkSendId: string;
  createdAt: Date;
  messages: number;
  held: bigint;
  refunds: number;
  refunded: bigint;
};

export type LedgerItem = LedgerRow | LedgerBulkGroup;

const ROW_COLUMNS = {
  id: true,
  kind: true,
  amount: true,
  balanceAfter: true,
  messageId: true,
  bulkSendId: true,
  reason: true,
  actor: true,
  createdAt: true,
} as const;

function baseWhere(accountId: string, filters: LedgerFilters): Prisma.LedgerEntryWhereInput {
  const createdAt = dayRange(filters.from, filters.to);
  return {
    accountId,
    ...(filters.kind ? { kind: filters.kind } : {}),
    ...(filters.before ? { id: { lt: filters.before } } : {}),
    ...(createdAt ? { createdAt } : {}),
  };
}

/** Entries of no bulk send: releases carry the bulk send through their message only. */
const NOT_OF_A_BULK: Prisma.LedgerEntryWhereInput = {
  bulkSendId: null,
  OR: [{ messageId: null }, { message: { is: { bulkSendId: null } } }],
};

async function refundsOf(bulkSendIds: string[]): Promise<Map<string, { count: number; amount: bigint }>> {
  if (bulkSendIds.length === 0) return new Map();
  const rows = await sql().all(
    `SELECT m."bulkSendId" AS "bulkSendId", COUNT(*) AS "count", SUM(l."amount") AS "amount"
     FROM "LedgerEntry" l JOIN "Message" m ON m."id" = l."messageId"
     WHERE l."kind" = 'release' AND m."bulkSendId" IN (${bulkSendIds.map(() => "?").join(", ")})
     GROUP BY m."bulkSendId"`,
    bulkSendIds,
  );
  const refunds = parseRows(rows, { bulkSendId: "text", count: "integer", amount: "bigint" });
  return new Map(refunds.map(({ bulkSendId, count, amount }) => [bulkSendId, { count, amount }]));
}

async function bulkGroups(accountId: string, filters: LedgerFilters): Promise<LedgerBulkGroup[]> {
  if (filters.kind === "credit" || filters.kind === "adjustment") return [];
  const createdAt = dayRange(filters.from, filters.to);
  const groups = await db().ledgerEntry.groupBy({
    by: ["bulkSendId"],
    where: { accountId, kind: "hold", bulkSendId: { not: null }, ...(createdAt ? { createdAt } : {}) },
    ...(filters.before ? { having: { id: { _min: { lt: filters.before } } } } : {}),
    _min: { id: true, createdAt: true },
    _count: { _all: true },
    _sum: { amount: true },
    orderBy: { _min: { id: "desc" } },
    take: LEDGER_PAGE_SIZE + 1,
  });
  const refunds = await refundsOf(groups.map((group) => group.bulkSendId!));
  return groups
    .map((group) => ({
      type: "bulk" as const,
      id: group._min.id!,
      bulkSendId: group.bulkSendId!,
      createdAt: group._min.createdAt!,
      messages: group._count._all,
      held: group._sum.amount ?? 0n,
      refunds: refunds.get(group.bulkSendId!)?.count ?? 0,
      refunded: refunds.get(group.bulkSendId!)?.amount ?? 0n,
    }))
    .filter((group) => filters.kind !== "release" || group.refunds > 0);
}

export async function listLedger(accountId: string, filters: LedgerFilters): Promise<{ rows: LedgerItem[]; nextBefore: number | null }> {
  const grouped = filters.rows !== "each";
  const [entries, groups] = await Promise.all([
    db().ledgerEntry.findMany({
      where: grouped ? { AND: [baseWhere(accountId, filters), NOT_OF_A_BULK] } : baseWhere(accountId, filters),
      orderBy: { id: "desc" },
      take: LEDGER_PAGE_SIZE + 1,
      select: ROW_COLUMNS,
    }),
    grouped ? bulkGroups(accountId, filters) : Promise.resolve([]),
  ]);
  const items: LedgerItem[] = [...entries.map((entry) => ({ type: "entry" as const, ...entry })), ...groups].sort((a, b) => b.id - a.id);
  const page = items.slice(0, LEDGER_PAGE_SIZE);
  return { rows: page, nextBefore: items.length > LEDGER_PAGE_SIZE ? page[page.length - 1].id : null };
}

export const LEDGER_CSV_COLUMNS = [
  "id",
  "created_at",
  "kind",
  "amount",
  "balance_after",
  "currency",
  "message_id",
  "bulk_id",
  "reason",
  "actor",
] as const;

const EXPORT_CHUNK = 1000;

/** Every entry the filters match, one row each, newest first, a chunk of lines per read; actors named as the audit log names them. */
export async function* ledgerCsv(accountId: string, currency: string, filters: LedgerFilters): AsyncGenerator<string> {
  yield `${LEDGER_CSV_COLUMNS.join(",")}\r\n`;
  let before = filters.before;
  for (;;) {
    const entries = await db().ledgerEntry.findMany({
      where: baseWhere(accountId, { ...filters, before }),
      orderBy: { id: "desc" },
      take: EXPORT_CHUNK,
      select: { ...ROW_COLUMNS, message: { select: { bulkSendId: true } } },
    });
    if (entries.length === 0) return;
    const actors = await describeActors(entries.map((entry) => entry.actor));
    yield entries
      .map((entry) => {
        const values = [
          String(entry.id),
          entry.createdAt.toISOString(),
          entry.kind,
          csvNumber(formatAmount(entry.amount)),
          csvNumber(formatAmount(entry.balanceAfter)),
          currency,
          entry.messageId ?? "",
          entry.bulkSendId ?? entry.message?.bulkSendId ?? "",
          entry.reason,
          actors.get(entry.actor) ?? entry.actor,
        ];
        return csvLine(values);
      })
      .join("");
    if (entries.length < EXPORT_CHUNK) return;
    before = entries[entries.length - 1].id;
  }
}
