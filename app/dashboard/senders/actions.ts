"use server";

import { z } from "zod";
import { accountIdOf, defineAction, userActor } from "@/lib/dashboard/define-action";
import { addSender } from "@/lib/senders/add-sender";
import { senderNameSchema } from "@/lib/senders/sender-name";

export const requestSenderAction = defineAction("senders.request", z.object({ sender_id: senderNameSchema }), async (input, user) => {
  const sender = await addSender({ accountId: accountIdOf(user), name: input.sender_id, approved: false, actor: userActor(user) });
  return { name: sender.name, status: sender.status };
});
