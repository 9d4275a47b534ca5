"use server";

import { z } from "zod";
import { defineAction, userActor } from "@/lib/dashboard/define-action";
import { operatorSchema } from "@/lib/carriers/operators";
import { assignInboundNumber, releaseInboundAssignment } from "@/lib/inbound/inbound-numbers";

export const assignNumberAction = defineAction(
  "numbers.manage",
  z.object({
    accountId: z.uuid("choose an account"),
    number: z.string().trim().min(1, "cannot be blank"),
    operator: z.union([operatorSchema, z.literal("")]),
  }),
  async (input, user) => {
    const row = await assignInboundNumber({
      accountId: input.accountId,
      number: input.number,
      operator: input.operator === "" ? null : input.operator,
      actor: userActor(user),
    });
    return { number: row.number };
  },
);

/** Releases the assignment the admin saw, by its id: never one made since the page loaded. */
export const releaseNumberAction = defineAction("numbers.manage", z.object({ id: z.uuid() }), async (input, user) => {
  const row = await releaseInboundAssignment({ id: input.id, actor: userActor(user) });
  return { number: row.number };
});
