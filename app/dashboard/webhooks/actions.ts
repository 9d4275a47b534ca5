"use server";

import { z } from "zod";
import { accountIdOf, defineAction, userActor } from "@/lib/dashboard/define-action";
import { getWebhookSecret, rotateWebhookSecret } from "@/lib/webhooks/webhook-secret";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

export const revealWebhookSecretAction = defineAction("webhooks.secret", z.object({}), async (_input, user) => {
  const accountId = accountIdOf(user);
  const secret = await getWebhookSecret(accountId);
  await recordAuditEvent({
    accountId,
    actor: userActor(user),
    action: "webhook_secret.revealed",
    targetType: "account",
    targetId: accountId,
  });
  return { secret };
});

export const rotateWebhookSecretAction = defineAction("webhooks.secret", z.object({}), async (_input, user) => ({
  secret: await rotateWebhookSecret(accountIdOf(user), userActor(user)),
}));
