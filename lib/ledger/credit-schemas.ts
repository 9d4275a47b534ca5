// The forms of credits and top-up requests, as typed. An amount is positive, at most four decimals, at most
// the balance ceiling. Free of storage, so forms check it in the browser before the server does.
import { z } from "zod";
import { MAX_BALANCE, formatAmount, parseAmount } from "@/lib/money";
import type { FieldError } from "@/lib/errors";

export const creditAmountSchema = z.string().transform((text, ctx) => {
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
});

/** A top-up request as the owner fills it in. */
export const topUpRequestSchema = z.object({
  amount: creditAmountSchema,
  reference: z
    .string()
    .trim()
    .min(3, "give the payment's reference, e.g. the bank transfer reference")
    .max(100, "must be at most 100 characters"),
  note: z.string().trim().max(300, "must be at most 300 characters").default(""),
});

/** Why an admin declines a top-up request; the owner reads it. */
export const declineReasonSchema = z.string().trim().min(3, "say why, in a few words").max(300, "must be at most 300 characters");

/** The first problem of each field, as forms show them. */
export function fieldErrorsOf(error: z.ZodError): FieldError[] {
  const fields = new Map<string, string>();
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    if (!fields.has(field)) fields.set(field, issue.message);
  }
  return [...fields].map(([field, description]) => ({ field, description }));
}
