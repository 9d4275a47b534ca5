// RFC 3339 date-times as clients write them (a send's send_at, a list's time filters): a date, a time
// and a zone (Z or an offset), "T" and "Z" in either case, or a space between date and time, as RFC
// 3339 allows.

const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * The RFC 3339 time as a Date, or null. Every field must be one a calendar and a clock have: Date
 * itself would roll 2030-11-31 over to 1 December and read 24:00 as the next day's midnight.
 */
export function parseRfc3339(text: string): Date | null {
  const match = RFC_3339.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const [offsetHours, offsetMinutes] = [match[8] ?? "0", match[9] ?? "0"].map(Number);
  const calendar = month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
  const clock = hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 23 && offsetMinutes <= 59;
  const date = calendar && clock ? new Date(text.replace(" ", "T").toUpperCase()) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}
