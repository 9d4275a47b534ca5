// The credit form's rules, checked in the browser before the confirmation step and again by the action.
import { z } from "zod";
import { creditAmountSchema } from "@/lib/ledger/credit-schemas";

export const creditBalanceSchema = z.object({
  accountId: z.uuid(),
  amount: creditAmountSchema,
  reason: z.string().trim().min(3, "say why, in a few words").max(200, "must be at most 200 characters"),
});

export const reverseCreditSchema = z.object({
  accountId: z.uuid(),
  creditId: z.number().int().positive(),
  note: z.string().trim().min(3, "say why, in a few words").max(200, "must be at most 200 characters"),
});
