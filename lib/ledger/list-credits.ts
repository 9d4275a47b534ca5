// Credits an administrator may review and reverse, newest first, each with its reversal if any.
import { sql } from "@/lib/db/client";
import { fromDbTime } from "@/lib/db/sql";
import { REVERSAL_PREFIX } from "./reverse-credit";

export type CreditRow = {
  id: number;
  accountId: string;
  accountName: string;
  currency: string;
  amount: bigint;
  reason: string;
  /** The crediting user's email, or the raw actor ("cli", "system"). */
  actor: string;
  createdAt: Date;
  reversed: boolean;
};

export async function listRecentCredits(limit = 20): Promise<CreditRow[]> {
  const rows = await sql().all<{
    id: number | string;
    accountId: string;
    accountName: string;
    currency: string;
    amount: number | string;
    reason: string;
    actor: string;
    createdAt: unknown;
  }>(
    `SELECT l."id", l."accountId", a."name" AS "accountName", a."currency", l."amount", l."reason",
            COALESCE(u."email", l."actor") AS "actor", l."createdAt"
       FROM "LedgerEntry" l
       JOIN "Account" a ON a."id" = l."accountId"
       LEFT JOIN "User" u ON l."actor" = 'user:' || u."id"
      WHERE l."kind" = 'credit'
      ORDER BY l."id" DESC
      LIMIT ?`,
    [limit],
  );
  if (rows.length === 0) return [];
  const reversals = await sql().all<{ reason: string }>(
    `SELECT "reason" FROM "LedgerEntry" WHERE "kind" = 'adjustment' AND "reason" LIKE ?`,
    [`${REVERSAL_PREFIX}%`],
  );
  const reversed = new Set(reversals.map((row) => Number(/^Reversal of credit #(\d+):/.exec(row.reason)?.[1])));
  return rows.map((row) => ({
    id: Number(row.id),
    accountId: row.accountId,
    accountName: row.accountName,
    currency: row.currency,
    amount: BigInt(row.amount),
    reason: row.reason,
    actor: row.actor,
    createdAt: fromDbTime(row.createdAt),
    reversed: reversed.has(Number(row.id)),
  }));
}
