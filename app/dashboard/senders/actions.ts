"use server";

import { z } from "zod";
import { accountIdOf, defineAction, userActor } from "@/lib/dashboard/define-action";
import { addSender } from "@/lib/senders/add-sender";
import { senderNameSchema, senderUseCaseSchema } from "@/lib/senders/sender-name";

export const requestSenderAction = defineAction(
  "senders.request",
  z.object({ sender_id: senderNameSchema, use_case: senderUseCaseSchema }),
  async (input, user) => {
    const sender = await addSender({
      accountId: accountIdOf(user),
      name: input.sender_id,
      useCase: input.use_case,
      approved: false,
      actor: userActor(user),
    });
    return { name: sender.name, status: sender.status };
  },
);
