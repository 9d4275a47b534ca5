"use server";

import { accountIdOf, defineAction, userActor } from "@/lib/dashboard/define-action";
import { sendSmsRequestSchema } from "@/lib/api/sms/sms-schemas";
import { acceptMessages } from "@/lib/messages/accept-messages";

/** The dashboard's single send: the API's request schema and the same acceptMessages, as the signed-in user. */
export const sendSmsAction = defineAction("messages.send", sendSmsRequestSchema, async (input, user) => {
  const send = await acceptMessages({
    accountId: accountIdOf(user),
    from: input.from,
    body: input.message,
    recipients: [input.to],
    webhookUrl: input.webhook_url ?? null,
    priority: input.priority,
    sendAt: input.send_at,
    validityPeriod: input.validity_period,
    actor: userActor(user),
    userId: user.id,
    mode: "live",
    kind: "single",
  });
  return { id: send.messages[0].id };
});
