import { getDatabase } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/sqlite";

/** Case-insensitive text search on both engines: SQLite's LIKE already ignores ASCII case. */
export function containsText(text: string): Prisma.StringFilter {
  return getDatabase().kind === "postgres" ? ({ contains: text, mode: "insensitive" } as Prisma.StringFilter) : { contains: text };
}
