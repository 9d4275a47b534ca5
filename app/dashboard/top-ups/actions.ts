"use server";

import { z } from "zod";
import { defineAction, userActor } from "@/lib/dashboard/define-action";
import { approveTopUp } from "@/lib/ledger/approve-top-up";
import { declineTopUp } from "@/lib/ledger/decline-top-up";

/** Credits the request's amount once; a request approved, declined or cancelled meanwhile is a CONFLICT. */
export const approveTopUpAction = defineAction("balance.credit", z.object({ requestId: z.uuid() }), async (input, user) => {
  const { balance } = await approveTopUp({ requestId: input.requestId, actor: userActor(user) });
  return { balance: balance.toString() };
});

export const declineTopUpAction = defineAction(
  "balance.credit",
  z.object({ requestId: z.uuid(), reason: z.string() }),
  async (input, user) => {
    await declineTopUp({ requestId: input.requestId, reason: input.reason, actor: userActor(user) });
    return { id: input.requestId };
  },
);
