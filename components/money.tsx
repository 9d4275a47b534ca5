import { displayAmount } from "@/lib/money";
import { cn } from "./ui/cn";

/** An amount in ten-thousandths, shown to the cent; signed amounts are coloured. */
export function Money({ value, currency, signed = false, className }: { value: bigint | string; currency: string; signed?: boolean; className?: string }) {
  const amount = BigInt(value);
  return (
    <span className={cn("tabular-nums", signed && amount > 0n && "text-emerald-700", signed && amount < 0n && "text-slate-900", className)}>
      {signed && amount > 0n ? "+" : ""}
      {displayAmount(amount, currency)}
    </span>
  );
}
