"use server";

import { z } from "zod";
import { defineAction, userActor } from "@/lib/dashboard/define-action";
import { operatorSchema } from "@/lib/carriers/operators";
import { MAX_PAUSE_REASON, MIN_PAUSE_REASON, pauseCarrier, resumeCarrier } from "@/lib/carriers/carrier-pauses";

export const pauseCarrierAction = defineAction(
  "carriers.manage",
  z.object({
    operator: operatorSchema,
    reason: z
      .string()
      .trim()
      .min(MIN_PAUSE_REASON, "say why, in a few words")
      .max(MAX_PAUSE_REASON, `must be at most ${MAX_PAUSE_REASON} characters`),
  }),
  async (input, user) => {
    const { changed } = await pauseCarrier({ operator: input.operator, reason: input.reason, actor: userActor(user) });
    return { changed };
  },
);

export const resumeCarrierAction = defineAction("carriers.manage", z.object({ operator: operatorSchema }), async (input, user) =>
  resumeCarrier({ operator: input.operator, actor: userActor(user) }),
);
