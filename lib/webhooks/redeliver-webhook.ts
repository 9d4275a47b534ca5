// The dashboard's "redeliver" button: the delivery is due again now, whatever its state. Its
// attempt count carries on, so a delivery past the schedule gets this one attempt only.
import { sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/**
 * A delivery of the account (another account's reads as not found), audited as
 * `webhook.redelivered` under the actor, from whichever page the button was pressed on.
 */
export async function redeliverWebhook(deliveryId: string, input: { accountId: string; actor: string }): Promise<void> {
  const at = toDbTime(new Date());
  const changed = await sql().run(
    `UPDATE "WebhookDelivery" SET "status" = 'pending', "nextAttemptAt" = ?, "leaseUntil" = NULL, "updatedAt" = ?
     WHERE "id" = ? AND "accountId" = ?`,
    [at, at, deliveryId, input.accountId],
  );
  if (changed === 0) throw AppError.notFound("Webhook delivery");
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "webhook.redelivered",
    targetType: "webhook_delivery",
    targetId: deliveryId,
  });
}
