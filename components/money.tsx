import { formatMoney } from "@/lib/money";
import { cn } from "./ui/cn";

/**
 * An amount in ten-thousandths, exact (formatMoney): four decimals where it is not whole cents, or
 * always where per-message prices are lined up (`fourDecimals`); signed amounts are coloured.
 */
export function Money({
  value,
  currency,
  signed = false,
  fourDecimals = false,
  className,
  testId,
}: {
  value: bigint | string;
  currency: string;
  signed?: boolean;
  fourDecimals?: boolean;
  className?: string;
  testId?: string;
}) {
  const amount = BigInt(value);
  return (
    <span
      data-testid={testId}
      className={cn(
        "whitespace-nowrap tabular-nums",
        signed && amount > 0n && "text-emerald-700",
        signed && amount < 0n && "text-slate-900",
        className,
      )}
    >
      {signed && amount > 0n ? "+" : ""}
      {formatMoney(amount, currency, { fourDecimals })}
    </span>
  );
}
