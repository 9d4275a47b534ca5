// What a send will cost, computed where the user types (the server prices it again on accept, with
// the same segments × per-carrier rate).
import { operators, type Operator } from "@/lib/carriers/operators";

export type RateTable = Record<Operator, string>;

export function priceSend(
  segments: number,
  rates: RateTable,
  perOperator: Record<Operator, number>,
): { perOperator: Record<Operator, bigint>; total: bigint } {
  const prices = {} as Record<Operator, bigint>;
  let total = 0n;
  for (const operator of operators) {
    prices[operator] = BigInt(segments) * BigInt(rates[operator]) * BigInt(perOperator[operator]);
    total += prices[operator];
  }
  return { perOperator: prices, total };
}
