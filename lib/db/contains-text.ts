import { getDatabase } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/sqlite";

/**
 * Text that contains what the user typed, as literal text and ignoring case, on both engines: LIKE's
 * wildcards (% and _) and its escape character (a backslash, on SQLite too: see lib/db/client.ts)
 * are escaped. Case: PostgreSQL's ILIKE; SQLite's LIKE ignores ASCII case.
 */
export function containsText(text: string): Prisma.StringFilter {
  const literal = text.replace(/[\\%_]/g, "\\$&");
  return getDatabase().kind === "postgres" ? ({ contains: literal, mode: "insensitive" } as Prisma.StringFilter) : { contains: literal };
}
