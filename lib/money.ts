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

/** The one locale amounts are shown in, on the server and in every browser alike (so pages hydrate unchanged). */
export const MONEY_LOCALE = "en-ZW";

const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(currency: string, fourDecimals: boolean): Intl.NumberFormat {
  const key = `${currency}:${fourDecimals}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(MONEY_LOCALE, {
      style: "currency",
      currency,
      currencyDisplay: "code",
      signDisplay: "negative",
      ...(fourDecimals ? { minimumFractionDigits: 4, maximumFractionDigits: 4 } : {}),
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** Whether an amount is a whole number of the currency's smallest unit (cents for USD), so its own precision shows it exactly. */
function isWholeMinorUnits(value: bigint, currency: string): boolean {
  const digits = formatterFor(currency, false).resolvedOptions().maximumFractionDigits ?? 2;
  return digits >= 4 || value % 10n ** BigInt(4 - digits) === 0n;
}

/**
 * An amount for people, always exact, with thousands separators: at the currency's own precision
 * when that shows it whole (255000n, "USD" → "USD 25.50"), else with all four stored decimals
 * (350n → "USD 0.0350"); `fourDecimals` shows four whatever the amount (per-message prices).
 * The amount goes to Intl as a decimal string, so no digit is lost to floating point. Intl's
 * no-break space becomes a plain one (Money keeps the amount on one line itself).
 */
export function formatMoney(value: bigint, currency: string, { fourDecimals = false }: { fourDecimals?: boolean } = {}): string {
  return formatterFor(currency, fourDecimals || !isWholeMinorUnits(value, currency))
    .format(formatAmount(value) as `${number}`)
    .replace(/\u00a0/g, " ");
}
