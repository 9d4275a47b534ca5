"use server";

import { z } from "zod";
import { accountIdOf, defineAction, userActor } from "@/lib/dashboard/define-action";
import { redeliverWebhook } from "@/lib/webhooks/redeliver-webhook";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

export const redeliverWebhookAction = defineAction("webhooks.redeliver", z.object({ deliveryId: z.uuid() }), async (input, user) => {
  const accountId = accountIdOf(user);
  await redeliverWebhook(input.deliveryId, { accountId });
  await recordAuditEvent({
    accountId,
    actor: userActor(user),
    action: "webhook.redelivered",
    targetType: "webhook_delivery",
    targetId: input.deliveryId,
  });
  return { deliveryId: input.deliveryId };
});
