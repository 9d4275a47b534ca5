// IANA time zones: the account's zone, in which the dashboard reads the times a user types. Pure, so
// the browser and the server read a typed time the same way.

/** Zimbabwe's zone (CAT, UTC+2 all year): a new account's. */
export const DEFAULT_TIME_ZONE = "Africa/Harare";

/** Every zone this runtime knows, as the account setting offers them. */
export function listTimeZones(): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  return zones.includes("UTC") ? zones : ["UTC", ...zones];
}

/**
 * An Area/Location name as the IANA database writes it ("Asia/Kolkata", "Etc/GMT+2"): each place
 * name capitalised, so legacy names ("US/Eastern") and shouted ones ("Asia/KOLKATA") are not.
 */
const AREA_LOCATION =
  /^((Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific)(\/[A-Z][a-z][A-Za-z_-]*){1,2}|Etc\/GMT[+-]\d{1,2})$/;

/**
 * Whether the zone is one Intl lists, or a current Area/Location name Intl knows under an older one
 * (Asia/Kolkata for Asia/Calcutta). Names are stored as written: another spelling of a listed
 * zone ("Europe/LONDON", "africa/harare") is not taken.
 */
export function isTimeZone(name: string): boolean {
  const zones = listTimeZones();
  if (zones.includes(name)) return true;
  if (!AREA_LOCATION.test(name) || zones.some((zone) => zone.toLowerCase() === name.toLowerCase())) return false;
  return knowsTimeZone(name);
}

/** Whether this runtime's Intl can read clocks in the zone (a browser's may know fewer zones than the server's). */
export function knowsTimeZone(timeZone: string): boolean {
  try {
    wallClockFormat(timeZone);
    return true;
  } catch {
    return false;
  }
}

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
  let format = wallClockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    wallClockFormats.set(timeZone, format);
  }
  return format;
}

/** Date.UTC, but for every year: Date.UTC reads years 0 to 99 as 1900 to 1999. */
function utc(year: number, monthIndex: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return date.setUTCHours(hour, minute, second, 0);
}

/** The zone's wall clock at an instant, as if that clock read UTC (epoch milliseconds, whole seconds). */
function wallClockAt(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    wallClockFormat(timeZone)
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  return utc(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** How the zone's clocks read a typed time: once, never (skipped when they go forward) or twice (repeated when they go back). */
export type WallClockReading = "once" | "skipped" | "repeated";

/**
 * The instant a wall-clock time ("2026-12-01T08:00", as a datetime-local field gives it) names in
 * the zone, and how the zone's clocks read it; null when the text is no such time. A time the clocks
 * skip (spring forward) reads as the same distance past the change, and a time they repeat (fall
 * back) as its first occurrence, as most calendars do. Null too when this runtime does not know the zone.
 */
export function readLocalTime(local: string, timeZone: string): { instant: Date; reading: WallClockReading } | null {
  const match = LOCAL_TIME.exec(local);
  if (!match || !knowsTimeZone(timeZone)) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  const wall = utc(year, month - 1, day, hour, minute, second);
  const read = new Date(wall);
  if (Number.isNaN(wall) || read.getUTCMonth() !== month - 1 || read.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59)
    return null;
  // Offsets a day either side: a zone changes its offset at most once within them.
  const DAY = 86_400_000;
  const offsetBefore = wallClockAt(wall - DAY, timeZone) - (wall - DAY);
  const offsetAfter = wallClockAt(wall + DAY, timeZone) - (wall + DAY);
  const matching = [...new Set([wall - offsetBefore, wall - offsetAfter])].filter((instant) => wallClockAt(instant, timeZone) === wall);
  // No candidate reads that wall clock: the clocks skipped it; the offset before the change moves it past.
  if (matching.length === 0) return { instant: new Date(wall - offsetBefore), reading: "skipped" };
  return { instant: new Date(Math.min(...matching)), reading: matching.length > 1 ? "repeated" : "once" };
}

/** The instant a wall-clock time names in the zone (see readLocalTime); null when the text is no such time. */
export function localTimeToInstant(local: string, timeZone: string): Date | null {
  return readLocalTime(local, timeZone)?.instant ?? null;
}
