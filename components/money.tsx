import { displayAmount, formatAmount } from "@/lib/money";
import { cn } from "./ui/cn";

/**
 * An amount in ten-thousandths, shown to the cent, or to the ten-thousandth where per-message prices
 * need it (precise); signed amounts are coloured.
 */
export function Money({ value, currency, signed = false, precise = false, className }: { value: bigint | string; currency: string; signed?: boolean; precise?: boolean; className?: string }) {
  const amount = BigInt(value);
  const text = precise ? `${amount < 0n ? "-" : ""}${currency} ${formatAmount(amount < 0n ? -amount : amount)}` : displayAmount(amount, currency);
  return (
    <span className={cn("tabular-nums", signed && amount > 0n && "text-emerald-700", signed && amount < 0n && "text-slate-900", className)}>
      {signed && amount > 0n ? "+" : ""}
      {text}
    </span>
  );
}
