// The account's ledger, newest first, with keyset pagination on the entry id (the primary key).
import { z } from "zod";
import { db } from "@/lib/db/client";
import { dayParam, dayRange } from "./filters";

export const LEDGER_PAGE_SIZE = 50;

export const ledgerFiltersSchema = z.object({
  kind: z.enum(["credit", "hold", "release", "adjustment"]).optional().catch(undefined),
  from: dayParam,
  to: dayParam,
  before: z.coerce.number().int().positive().optional().catch(undefined),
});

export type LedgerFilters = z.infer<typeof ledgerFiltersSchema>;

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
    select: { id: true, kind: true, amount: true, balanceAfter: true, messageId: true, bulkSendId: true, reason: true, actor: true, createdAt: true },
  });
  const page = rows.slice(0, LEDGER_PAGE_SIZE);
  return { rows: page, nextBefore: rows.length > LEDGER_PAGE_SIZE ? page[page.length - 1].id : null };
}
