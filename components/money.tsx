import { formatMoney } from "@/lib/money";
import { cn } from "./ui/cn";

/**
 * An amount in ten-thousandths at its currency's precision, with the exact four-decimal value on
 * hover (or shown outright where per-message prices need it: `exact`); signed amounts are coloured.
 */
export function Money({
  value,
  currency,
  signed = false,
  exact = false,
  className,
  testId,
}: {
  value: bigint | string;
  currency: string;
  signed?: boolean;
  exact?: boolean;
  className?: string;
  testId?: string;
}) {
  const amount = BigInt(value);
  return (
    <span
      title={formatMoney(amount, currency, { exact: true })}
      data-testid={testId}
      className={cn(
        "whitespace-nowrap tabular-nums",
        signed && amount > 0n && "text-emerald-700",
        signed && amount < 0n && "text-slate-900",
        className,
      )}
    >
      {signed && amount > 0n ? "+" : ""}
      {formatMoney(amount, currency, { exact })}
    </span>
  );
}
