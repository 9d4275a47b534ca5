"use server";

import { z } from "zod";
import { defineAction, userActor } from "@/lib/dashboard/define-action";
import { operatorSchema } from "@/lib/carriers/operators";
import { describeActors } from "@/lib/dashboard/list-audit-events";
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
    const { pause, changed } = await pauseCarrier({ operator: input.operator, reason: input.reason, actor: userActor(user) });
    // A carrier paused meanwhile keeps its first pause: say whose, and why, as the audit log names them.
    const pausedBy = (await describeActors([pause.actor])).get(pause.actor) ?? pause.actor;
    return { changed, reason: pause.reason, pausedBy };
  },
);

export const resumeCarrierAction = defineAction("carriers.manage", z.object({ operator: operatorSchema }), async (input, user) =>
  resumeCarrier({ operator: input.operator, actor: userActor(user) }),
);
