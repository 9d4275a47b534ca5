"use server";

import { z } from "zod";
import { accountIdOf, defineAction, userActor } from "@/lib/dashboard/define-action";
import { revealWebhookSecret, rotateWebhookSecret } from "@/lib/webhooks/webhook-secret";
import { AppError } from "@/lib/errors";
import { parseAmount } from "@/lib/money";
import { redeliverWebhook } from "@/lib/webhooks/redeliver-webhook";
import { setLowBalanceThreshold } from "@/lib/webhooks/low-balance";
import { createWebhookEndpoint, deleteWebhookEndpoint, rotateWebhookEndpointSecret, sendTestEvent } from "@/lib/webhooks/webhook-endpoints";

export const revealWebhookSecretAction = defineAction("webhooks.secret", z.object({}), async (_input, user) => ({
  secret: await revealWebhookSecret(accountIdOf(user), userActor(user)),
}));

export const rotateWebhookSecretAction = defineAction("webhooks.secret", z.object({}), async (_input, user) => ({
  secret: await rotateWebhookSecret(accountIdOf(user), userActor(user)),
}));

const endpointId = z.object({ id: z.uuid() });

export const createEndpointAction = defineAction(
  "webhooks.endpoints",
  z.object({ url: z.string().trim().min(1, "cannot be blank"), events: z.array(z.string()) }),
  async (input, user) => {
    const { endpoint, secret } = await createWebhookEndpoint({
      accountId: accountIdOf(user),
      url: input.url,
      events: input.events,
      actor: userActor(user),
    });
    return { id: endpoint.id, secret };
  },
);

export const deleteEndpointAction = defineAction("webhooks.endpoints", endpointId, async (input, user) => {
  await deleteWebhookEndpoint({ accountId: accountIdOf(user), id: input.id, actor: userActor(user) });
  return {};
});

export const rotateEndpointAction = defineAction("webhooks.endpoints", endpointId, async (input, user) => {
  const { secret } = await rotateWebhookEndpointSecret({ accountId: accountIdOf(user), id: input.id, actor: userActor(user) });
  return { secret };
});

export const sendTestEventAction = defineAction("webhooks.endpoints", endpointId, async (input, user) => ({
  deliveryId: await sendTestEvent({ accountId: accountIdOf(user), id: input.id }),
}));

export const redeliverEndpointDeliveryAction = defineAction(
  "webhooks.redeliver",
  z.object({ deliveryId: z.uuid() }),
  async (input, user) => {
    await redeliverWebhook(input.deliveryId, { accountId: accountIdOf(user), actor: userActor(user) });
    return {};
  },
);

export const setThresholdAction = defineAction("webhooks.endpoints", z.object({ threshold: z.string().trim() }), async (input, user) => {
  let threshold: bigint | null = null;
  if (input.threshold !== "") {
    try {
      threshold = parseAmount(input.threshold);
    } catch {
      throw AppError.validation([{ field: "threshold", description: "must be an amount such as 10.00" }]);
    }
  }
  await setLowBalanceThreshold({ accountId: accountIdOf(user), threshold, actor: userActor(user) });
  return {};
});
