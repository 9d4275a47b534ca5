// Per-carrier price of one segment: an account's override, else the platform default.
import { AppError } from "@/lib/errors";
import { operators, type Operator } from "./operators";

export const DEFAULT_SCOPE = "default";

export type RateRow = { scope: string; operator: string; pricePerSegment: bigint };

/** From the default and the account's own rate rows: the account's rate of each carrier, else the default. */
export function resolveRates(rows: readonly RateRow[], accountId: string): Record<Operator, bigint> {
  const rates = {} as Record<Operator, bigint>;
  for (const operator of operators) {
    const row =
      rows.find((rate) => rate.scope === accountId && rate.operator === operator) ??
      rows.find((rate) => rate.scope === DEFAULT_SCOPE && rate.operator === operator);
    if (!row) throw new AppError("INTERNAL", `No rate is configured for ${operator}`);
    rates[operator] = row.pricePerSegment;
  }
  return rates;
}
