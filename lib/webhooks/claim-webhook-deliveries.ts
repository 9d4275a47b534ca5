// Due webhook deliveries, leased to one sender at a time (the same claim pattern as messages).
import { sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { skipLockedClause } from "@/lib/delivery/claim-messages";

export type WebhookDeliveryRow = {
  id: string;
  accountId: string;
  messageId: string;
  url: string;
  eventType: string;
  payload: string;
  attempts: number;
};

export async function claimWebhookDeliveries(limit: number, leaseMs: number, now = new Date()): Promise<WebhookDeliveryRow[]> {
  const database = sql();
  const at = toDbTime(now);
  const rows = await database.all<WebhookDeliveryRow>(
    `UPDATE "WebhookDelivery" SET "leaseUntil" = ?, "updatedAt" = ?
     WHERE "id" IN (
       SELECT "id" FROM "WebhookDelivery"
       WHERE "status" = 'pending' AND "nextAttemptAt" <= ? AND ("leaseUntil" IS NULL OR "leaseUntil" < ?)
       ORDER BY "nextAttemptAt" LIMIT ?${skipLockedClause(database.dialect)})
     RETURNING "id", "accountId", "messageId", "url", "eventType", "payload", "attempts"`,
    [toDbTime(new Date(now.getTime() + leaseMs)), at, at, at, limit],
  );
  return rows.map((row) => ({ ...row, attempts: Number(row.attempts) }));
}
