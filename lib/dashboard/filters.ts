// Filters arrive as URL search params; these parse them. A bad value is left out of the filters and
// named, with the reason, so the view can say why it was not applied (never a 500).
import { z } from "zod";
import type { FieldError } from "@/lib/errors";
import { isStorableTime } from "@/lib/model/storable-time";

/** A UTC day "YYYY-MM-DD". */
export const dayParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "use a day as YYYY-MM-DD")
  // Date.parse rolls 2026-02-30 over to March 2: a real day reads back as itself.
  .refine((text) => {
    const time = Date.parse(`${text}T00:00:00Z`);
    return !Number.isNaN(time) && new Date(time).toISOString().startsWith(text);
  }, "no such day")
  // A range ends at the midnight after its last day: that must be a time the database takes too.
  .refine((text) => {
    const time = Date.parse(`${text}T00:00:00Z`);
    return isStorableTime(new Date(time)) && isStorableTime(new Date(time + 86_400_000));
  }, "use a day from 0001-01-01 to 9999-12-30");

export type ParsedFilters<S extends Record<string, z.ZodType>> = {
  filters: { [K in keyof S]?: z.output<S[K]> };
  /** One per refused value; the description starts with the filter's label. */
  problems: FieldError[];
};

/**
 * Each filter parsed on its own, so one bad value does not drop the others. `dayRange` names a pair
 * of day filters ([from, to]): a To day before the From day is refused, named on To.
 */
export function parseFilters<S extends Record<string, z.ZodType>>(
  fields: S,
  labels: { [K in keyof S]: string },
  params: Record<string, string | undefined>,
  { dayRange }: { dayRange?: [from: keyof S & string, to: keyof S & string] } = {},
): ParsedFilters<S> {
  const filters: Record<string, unknown> = {};
  const problems: FieldError[] = [];
  for (const [key, schema] of Object.entries(fields)) {
    const value = params[key];
    if (value === undefined || value === "") continue;
    const parsed = schema.safeParse(value);
    if (parsed.success) filters[key] = parsed.data;
    else problems.push({ field: key, description: `${labels[key]}: ${parsed.error.issues[0].message}` });
  }
  if (dayRange) {
    const [fromKey, toKey] = dayRange;
    const [from, to] = [filters[fromKey], filters[toKey]];
    // Days as YYYY-MM-DD sort as text.
    if (typeof from === "string" && typeof to === "string" && to < from) {
      delete filters[toKey];
      problems.push({
        field: toKey,
        description: `${labels[toKey]}: ${to} is before ${labels[fromKey]} (${from}); choose a day on or after it`,
      });
    }
  }
  return { filters: filters as ParsedFilters<S>["filters"], problems };
}

/** [from, to] days as a half-open time range: from 00:00 of the first day to 00:00 after the last. */
export function dayRange(from?: string, to?: string): { gte?: Date; lt?: Date } | undefined {
  if (!from && !to) return undefined;
  return {
    ...(from ? { gte: new Date(`${from}T00:00:00Z`) } : {}),
    ...(to ? { lt: new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000) } : {}),
  };
}

/** Next's searchParams value: the first one when repeated. */
function firstParam(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function paramsOf(searchParams: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(searchParams).map(([key, value]) => [key, firstParam(value)?.trim() || undefined]));
}
