// Filters arrive as URL search params; these parse them (bad values are dropped, never a 500).
import { z } from "zod";

/** A UTC day "YYYY-MM-DD", or undefined when absent or malformed. */
export const dayParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)))
  .optional()
  .catch(undefined);

/** [from, to] days as a half-open time range: from 00:00 of the first day to 00:00 after the last. */
export function dayRange(from?: string, to?: string): { gte?: Date; lt?: Date } | undefined {
  if (!from && !to) return undefined;
  return {
    ...(from ? { gte: new Date(`${from}T00:00:00Z`) } : {}),
    ...(to ? { lt: new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000) } : {}),
  };
}

/** Next's searchParams value: the first one when repeated. */
export function firstParam(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function paramsOf(searchParams: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(searchParams).map(([key, value]) => [key, firstParam(value)?.trim() || undefined]));
}
