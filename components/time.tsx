"use client";

import { useSyncExternalStore } from "react";

// Every time in the dashboard reads in the reader's browser zone. The server cannot know that zone,
// so it renders UTC and hydration keeps it; React then re-renders in the browser's zone, the one
// every later client render uses too. The title names the zone and gives the exact UTC time.

const noSubscription = () => () => undefined;
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const noTimeZoneOnServer = () => null;

/** The browser's IANA time zone once hydrated; null on the server and while hydrating. */
export function useBrowserTimeZone(): string | null {
  return useSyncExternalStore(noSubscription, browserTimeZone, noTimeZoneOnServer);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string, seconds: boolean): Intl.DateTimeFormat {
  const key = `${timeZone}:${seconds}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(
      "en-GB",
      seconds
        ? { timeZone, day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", second: "2-digit" }
        : { timeZone, day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" },
    );
    formatters.set(key, formatter);
  }
  return formatter;
}

/** "Africa/Harare; 2026-11-27 22:25:13 UTC": the zone shown and the instant to the second in UTC. */
function zoneTitle(date: Date, timeZone: string): string {
  return `${timeZone}; ${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

export function Time({ value, seconds = false, fallback = "—" }: { value: string | null; seconds?: boolean; fallback?: string }) {
  const timeZone = useBrowserTimeZone() ?? "UTC";
  if (!value) return <span className="text-slate-400">{fallback}</span>;
  const date = new Date(value);
  return (
    <time dateTime={value} title={zoneTitle(date, timeZone)}>
      {formatterFor(timeZone, seconds).format(date)}
    </time>
  );
}

function formatRelative(value: string, now = Date.now()): string {
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

/** "3 hours ago", with the exact time in the reader's zone on hover; the server's clock differs slightly, so hydration is told so. */
export function RelativeTime({ value, fallback = "Never" }: { value: string | null; fallback?: string }) {
  const timeZone = useBrowserTimeZone() ?? "UTC";
  if (!value) return <span className="text-slate-400">{fallback}</span>;
  const date = new Date(value);
  return (
    <time dateTime={value} title={`${formatterFor(timeZone, true).format(date)}, ${zoneTitle(date, timeZone)}`} suppressHydrationWarning>
      {formatRelative(value)}
    </time>
  );
}
