// Credits an administrator may review and reverse, newest first, each with its reversal if any.
import { sql } from "@/lib/db/client";
import { parseRows } from "@/lib/db/stores/shared/rows";
import { REVERSAL_PREFIX } from "./reverse-credit";

export type CreditRow = {
  id: number;
  accountId: string;
  accountName: string;
  currency: string;
  amount: bigint;
  reason: string;
  /** As stored ("user:<id>", "cli", "system"); the dashboard names it as the audit log does. */
  actor: string;
  createdAt: Date;
  reversed: boolean;
};

const CREDIT_ROW = {
  id: "integer",
  accountId: "text",
  accountName: "text",
  currency: "text",
  amount: "bigint",
  reason: "text",
  actor: "text",
  createdAt: "time",
} as const;

export async function listRecentCredits(limit = 20): Promise<CreditRow[]> {
  const rows = await sql().all(
    `SELECT l."id", l."accountId", a."name" AS "accountName", a."currency", l."amount", l."reason",
            l."actor", l."createdAt"
       FROM "LedgerEntry" l
       JOIN "Account" a ON a."id" = l."accountId"
      WHERE l."kind" = 'credit'
      ORDER BY l."id" DESC
      LIMIT ?`,
    [limit],
  );
  if (rows.length === 0) return [];
  const reversals = await sql().all(`SELECT "reason" FROM "LedgerEntry" WHERE "kind" = 'adjustment' AND "reason" LIKE ?`, [
    `${REVERSAL_PREFIX}%`,
  ]);
  const reversed = new Set(
    parseRows(reversals, { reason: "text" }).map(({ reason }) => Number(/^Reversal of credit #(\d+):/.exec(reason)?.[1])),
  );
  return parseRows(rows, CREDIT_ROW).map((row) => ({ ...row, reversed: reversed.has(row.id) }));
}
