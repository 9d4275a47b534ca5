"use server";

import { z } from "zod";
import { accountIdOf, defineAction, userActor } from "@/lib/dashboard/define-action";
import { requestTopUp } from "@/lib/ledger/request-top-up";
import { cancelTopUp } from "@/lib/ledger/cancel-top-up";

/** The owner asks for a top-up; the domain checks the amount, the reference and the note, naming the field. */
export const requestTopUpAction = defineAction(
  "balance.request",
  z.object({ amount: z.string(), reference: z.string(), note: z.string().optional() }),
  async (input, user) => {
    const request = await requestTopUp({ accountId: accountIdOf(user), ...input, actor: userActor(user) });
    return { id: request.id };
  },
);

export const cancelTopUpAction = defineAction("balance.request", z.object({ requestId: z.uuid() }), async (input, user) => {
  await cancelTopUp({ accountId: accountIdOf(user), requestId: input.requestId, actor: userActor(user) });
  return { id: input.requestId };
});
