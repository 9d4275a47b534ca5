// Money is integer ten-thousandths of the currency unit (10000 = 1.00), BigInt in code.
const SCALE = 10_000n;

/**
 * The largest balance an account may hold, 100,000,000,000.0000 units: every amount and balance
 * stays within a 64-bit column and within a JavaScript number's exact integers, which is how the
 * PostgreSQL driver hands BIGINT columns over.
 */
export const MAX_BALANCE = 100_000_000_000n * SCALE;

/** "25.50" → 255000n. More than four decimals, signs other than a leading "-", or junk are refused. */
export function parseAmount(text: string): bigint {
  const match = /^(-)?(\d{1,15})(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not an amount with at most four decimals`);
  const [, sign, whole, fraction = ""] = match;
  const value = BigInt(whole) * SCALE + BigInt(fraction.padEnd(4, "0"));
  return sign ? -value : value;
}

/** 255000n → "25.5000" */
export function formatAmount(value: bigint): string {
  const negative = value < 0n;
  const absolute = negative ? -value : value;
  const text = `${absolute / SCALE}.${(absolute % SCALE).toString().padStart(4, "0")}`;
  return negative ? `-${text}` : text;
}

/** 255000n, "USD" → "USD 25.50" (display only, rounds down to cents). */
export function displayAmount(value: bigint, currency: string): string {
  const cents = value / 100n;
  const negative = cents < 0n;
  const absolute = negative ? -cents : cents;
  return `${negative ? "-" : ""}${currency} ${absolute / 100n}.${(absolute % 100n).toString().padStart(2, "0")}`;
}
