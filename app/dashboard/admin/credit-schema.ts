// The credit form's rules, checked in the browser before the confirmation step and again by the action.
import { z } from "zod";
import { MAX_BALANCE, formatAmount, parseAmount } from "@/lib/money";
import type { FieldError } from "@/lib/errors";

export const creditBalanceSchema = z.object({
  accountId: z.uuid(),
  amount: z.string().transform((text, ctx) => {
    let amount: bigint | null = null;
    try {
      amount = parseAmount(text);
    } catch {
      // reported below
    }
    if (amount === null || amount <= 0n) {
      ctx.addIssue({ code: "custom", message: "must be a positive amount with at most four decimals, e.g. 25.50" });
      return z.NEVER;
    }
    if (amount > MAX_BALANCE) {
      ctx.addIssue({ code: "custom", message: `must be at most ${formatAmount(MAX_BALANCE)}` });
      return z.NEVER;
    }
    return amount;
  }),
  reason: z.string().trim().min(3, "say why, in a few words").max(200, "must be at most 200 characters"),
});

export const reverseCreditSchema = z.object({
  accountId: z.uuid(),
  creditId: z.number().int().positive(),
  note: z.string().trim().min(3, "say why, in a few words").max(200, "must be at most 200 characters"),
});

/** The first problem of each field, as the form shows them. */
export function fieldErrorsOf(error: z.ZodError): FieldError[] {
  const fields = new Map<string, string>();
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    if (!fields.has(field)) fields.set(field, issue.message);
  }
  return [...fields].map(([field, description]) => ({ field, description }));
}
