// The dashboard's "redeliver" button: the delivery is due again now, whatever its state. Its
// attempt count carries on, so a delivery past the schedule gets this one attempt only.
import { sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";

/** Scoped to an account when accountId is given (a delivery of another account reads as not found). */
export async function redeliverWebhook(deliveryId: string, scope: { accountId?: string } = {}): Promise<void> {
  const at = toDbTime(new Date());
  const changed = await sql().run(
    `UPDATE "WebhookDelivery" SET "status" = 'pending', "nextAttemptAt" = ?, "leaseUntil" = NULL, "updatedAt" = ?
     WHERE "id" = ?${scope.accountId ? ` AND "accountId" = ?` : ""}`,
    [at, at, deliveryId, ...(scope.accountId ? [scope.accountId] : [])],
  );
  if (changed === 0) throw AppError.notFound("Webhook delivery");
}
