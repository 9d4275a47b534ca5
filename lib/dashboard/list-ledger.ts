// The account's ledger, newest first, with keyset pagination on the entry id (the primary key).
import { z } from "zod";
import { db } from "@/lib/db/client";
import { dayParam, dayRange, parseFilters, type ParsedFilters } from "./filters";

export const LEDGER_PAGE_SIZE = 50;

const ledgerFilterFields = {
  kind: z.enum(["credit", "hold", "release", "adjustment"], "choose one of the listed kinds"),
  from: dayParam,
  to: dayParam,
  before: z.coerce.number("this page link is not valid; start from the newest").int().positive(),
};

const ledgerFilterLabels = { kind: "Kind", from: "From", to: "To", before: "Page" };

export type LedgerFilters = ParsedFilters<typeof ledgerFilterFields>["filters"];

export function parseLedgerFilters(params: Record<string, string | undefined>): ParsedFilters<typeof ledgerFilterFields> {
  return parseFilters(ledgerFilterFields, ledgerFilterLabels, params);
}

export type LedgerRow = {
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

export async function listLedger(accountId: string, filters: LedgerFilters): Promise<{ rows: LedgerRow[]; nextBefore: number | null }> {
  const createdAt = dayRange(filters.from, filters.to);
  const rows = await db().ledgerEntry.findMany({
    where: {
      accountId,
      ...(filters.kind ? { kind: filters.kind } : {}),
      ...(filters.before ? { id: { lt: filters.before } } : {}),
      ...(createdAt ? { createdAt } : {}),
    },
    orderBy: { id: "desc" },
    take: LEDGER_PAGE_SIZE + 1,
    select: {
      id: true,
      kind: true,
      amount: true,
      balanceAfter: true,
      messageId: true,
      bulkSendId: true,
      reason: true,
      actor: true,
      createdAt: true,
    },
  });
  const page = rows.slice(0, LEDGER_PAGE_SIZE);
  return { rows: page, nextBefore: rows.length > LEDGER_PAGE_SIZE ? page[page.length - 1].id : null };
}
