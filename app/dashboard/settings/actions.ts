"use server";

import { z } from "zod";
import { accountIdOf, defineAction, userActor } from "@/lib/dashboard/define-action";
import { setAccountTimeZone } from "@/lib/accounts/account-time-zone";

/** The account's time zone (owners only). */
export const setTimeZoneAction = defineAction("account.settings", z.object({ time_zone: z.string().max(64) }), async (input, user) => ({
  timeZone: await setAccountTimeZone({ accountId: accountIdOf(user), timeZone: input.time_zone, actor: userActor(user) }),
}));
