// Dates render in the reader's time zone; the server's render may differ, so hydration is told so.
const dateTime = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
const dateTimeSeconds = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

export function Time({ value, seconds = false, fallback = "—" }: { value: string | null; seconds?: boolean; fallback?: string }) {
  if (!value) return <span className="text-slate-400">{fallback}</span>;
  const date = new Date(value);
  return (
    <time dateTime={value} title={value} suppressHydrationWarning>
      {(seconds ? dateTimeSeconds : dateTime).format(date)}
    </time>
  );
}

export function formatRelative(value: string, now = Date.now()): string {
  const seconds = Math.round((new Date(value).getTime() - now) / 1000);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ["day", 86400],
    ["hour", 3600],
    ["minute", 60],
  ];
  const format = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return Math.abs(seconds) < 10 ? "just now" : format.format(seconds, "second");
}

export function RelativeTime({ value, fallback = "Never" }: { value: string | null; fallback?: string }) {
  if (!value) return <span className="text-slate-400">{fallback}</span>;
  return (
    <time dateTime={value} title={value} suppressHydrationWarning>
      {formatRelative(value)}
    </time>
  );
}
