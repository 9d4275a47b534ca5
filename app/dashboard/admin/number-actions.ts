"use server";

import { z } from "zod";
import { defineAction, userActor } from "@/lib/dashboard/define-action";
import { operatorSchema } from "@/lib/carriers/operators";
import { assignInboundNumber, releaseInboundNumber } from "@/lib/inbound/inbound-numbers";

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

export const releaseNumberAction = defineAction(
  "numbers.manage",
  z.object({ number: z.string().min(1), operator: z.union([operatorSchema, z.literal("")]) }),
  async (input, user) => {
    await releaseInboundNumber({ number: input.number, operator: input.operator === "" ? null : input.operator, actor: userActor(user) });
    return { number: input.number };
  },
);
