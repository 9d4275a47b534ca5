"use server";

import { z } from "zod";
import { accountIdOf, defineAction, userActor } from "@/lib/dashboard/define-action";
import { cancelMessage } from "@/lib/messages/cancel-messages";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/** The Cancel of the message list and a message's page: the API's cancel, on the signed-in user's account. */
export const cancelMessageAction = defineAction("messages.send", z.object({ id: z.uuid(), test: z.boolean() }), async (input, user) => {
  const accountId = accountIdOf(user);
  const { message, cancelledNow } = await cancelMessage({ accountId, test: input.test }, input.id);
  // A message cancelled before (through the API, another tab) was not cancelled by this user.
  if (cancelledNow) {
    await recordAuditEvent({ accountId, actor: userActor(user), action: "message.cancelled", targetType: "message", targetId: input.id });
  }
  return { id: message.id, status: message.status };
});
