"use server";

import { z } from "zod";
import { accountIdOf, defineAction, userActor } from "@/lib/dashboard/define-action";
import { redeliverWebhook } from "@/lib/webhooks/redeliver-webhook";

export const redeliverWebhookAction = defineAction("webhooks.redeliver", z.object({ deliveryId: z.uuid() }), async (input, user) => {
  await redeliverWebhook(input.deliveryId, { accountId: accountIdOf(user), actor: userActor(user) });
  return { deliveryId: input.deliveryId };
});
