"use server";

import { z } from "zod";
import { defineAction } from "@/lib/dashboard/define-action";
import { setViewMode } from "@/lib/dashboard/view-mode";

/** Switches the signed-in account user's dashboard between live and test data. */
export const switchViewModeAction = defineAction("account.view", z.object({ mode: z.enum(["live", "test"]) }), async (input) => {
  await setViewMode(input.mode);
  return { mode: input.mode };
});
