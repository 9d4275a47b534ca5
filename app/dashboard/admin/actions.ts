"use server";

import { z } from "zod";
import { defineAction, userActor } from "@/lib/dashboard/define-action";
import { approveSender } from "@/lib/senders/approve-sender";
import { creditBalance } from "@/lib/ledger/credit-balance";
import { parseAmount } from "@/lib/money";

export const approveSenderAction = defineAction(
  "senders.approve",
  z.object({ accountId: z.uuid(), name: z.string().trim().min(1, "cannot be blank") }),
  async (input, user) => {
    const sender = await approveSender({ accountId: input.accountId, name: input.name, actor: userActor(user) });
    return { name: sender.name };
  },
);

const creditBalanceSchema = z.object({
  accountId: z.uuid(),
  amount: z.string().transform((text, ctx) => {
    try {
      const amount = parseAmount(text);
      if (amount > 0n) return amount;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: "custom", message: "must be a positive amount with at most four decimals, e.g. 25.50" });
    return z.NEVER;
  }),
  reason: z.string().trim().min(3, "say why, in a few words").max(200, "must be at most 200 characters"),
});

export const creditBalanceAction = defineAction("balance.credit", creditBalanceSchema, async (input, user) => {
  const { balance } = await creditBalance({
    accountId: input.accountId,
    amount: input.amount,
    reason: input.reason,
    actor: userActor(user),
  });
  return { balance: balance.toString() };
});
