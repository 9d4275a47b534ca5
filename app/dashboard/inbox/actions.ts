"use server";

import { z } from "zod";
import { accountIdOf, defineAction } from "@/lib/dashboard/define-action";
import { queueInboundSimulation } from "@/lib/inbound/simulate-inbound";

/** The sandbox of POST /api/v1/inbound/simulate, for the signed-in user's account. */
export const simulateReplyAction = defineAction(
  "inbound.view",
  z.object({ from: z.string(), to: z.string(), message: z.string() }),
  async (input, user) => {
    const queued = await queueInboundSimulation({ accountId: accountIdOf(user), ...input });
    return { from: queued.from, to: queued.to };
  },
);
