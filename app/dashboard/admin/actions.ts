"use server";

import { z } from "zod";
import { defineAction, userActor } from "@/lib/dashboard/define-action";
import { approveSender } from "@/lib/senders/approve-sender";
import { rejectSender } from "@/lib/senders/reject-sender";
import { creditBalance } from "@/lib/ledger/credit-balance";
import { reverseCredit } from "@/lib/ledger/reverse-credit";
import { creditBalanceSchema, reverseCreditSchema } from "./credit-schema";

export const approveSenderAction = defineAction(
  "senders.approve",
  z.object({ accountId: z.uuid(), name: z.string().trim().min(1, "cannot be blank") }),
  async (input, user) => {
    const sender = await approveSender({ accountId: input.accountId, name: input.name, actor: userActor(user) });
    return { name: sender.name };
  },
);

/** Turns a request down; the reason is shown to the account on its Sender IDs page. */
export const rejectSenderAction = defineAction(
  "senders.approve",
  z.object({ accountId: z.uuid(), name: z.string().trim().min(1, "cannot be blank"), reason: z.string() }),
  async (input, user) => {
    const sender = await rejectSender({ accountId: input.accountId, name: input.name, reason: input.reason, actor: userActor(user) });
    return { name: sender.name };
  },
);

export const creditBalanceAction = defineAction("balance.credit", creditBalanceSchema, async (input, user) => {
  const { balance } = await creditBalance({
    accountId: input.accountId,
    amount: input.amount,
    reason: input.reason,
    actor: userActor(user),
  });
  return { balance: balance.toString() };
});

/** Undoes a credit with a correcting ledger entry; the credit itself stays as it was written. */
export const reverseCreditAction = defineAction("balance.credit", reverseCreditSchema, async (input, user) => {
  const { balance } = await reverseCredit({
    accountId: input.accountId,
    creditId: input.creditId,
    note: input.note,
    actor: userActor(user),
  });
  return { balance: balance.toString() };
});
