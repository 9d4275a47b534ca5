// The parts receipts are for, found by their carrier's ids, with what a receipt needs of their message.
import { fromDbTime, type SqlExecutor } from "@/lib/db/sql";
import { inList } from "@/lib/db/batch-lists";
import type { StoredPart } from "../types";

export async function findParts(executor: SqlExecutor, operator: string, carrierMessageIds: string[]): Promise<StoredPart[]> {
  if (carrierMessageIds.length === 0) return [];
  const ids = inList(carrierMessageIds);
  // Not prepared: on PostgreSQL a generic plan made while the table was small reads every part of
  // the operator and filters them by id, however large the table has grown.
  const rows = await executor.all<{
    id: string;
    messageId: string;
    status: string;
    carrierMessageId: string;
    createdAt: unknown;
    accountId: string;
    webhookUrl: string | null;
  }>(
    `SELECT p."id", p."messageId", p."status", p."carrierMessageId", p."createdAt", m."accountId", m."webhookUrl"
     FROM "MessagePart" p JOIN "Message" m ON m."id" = p."messageId" WHERE p."operator" = ? AND p."carrierMessageId" IN ${ids.text}`,
    [operator, ...ids.params],
  );
  return rows.map((row) => ({ ...row, createdAt: fromDbTime(row.createdAt) }));
}
