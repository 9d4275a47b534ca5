import crypto from "node:crypto";
import { sql } from "./client";
import { migrate } from "./migrate";
import { toDbTime } from "./sql";
import { operators } from "@/lib/carriers/operators";
import { DEFAULT_SCOPE, defaultRates } from "@/lib/rates/rates";

/**
 * Brings the database to the current schema and makes sure every carrier has a platform rate.
 * Safe when several processes start at once (the migrator locks; rates insert-or-skip).
 */
export async function prepareDatabase(): Promise<{ applied: string[] }> {
  const applied = await migrate(sql());
  const now = toDbTime(new Date());
  for (const operator of operators) {
    await sql().run(
      `INSERT INTO "Rate" ("id", "scope", "accountId", "operator", "pricePerSegment", "updatedAt") VALUES (?, ?, NULL, ?, ?, ?)
       ON CONFLICT ("scope", "operator") DO NOTHING`,
      [crypto.randomUUID(), DEFAULT_SCOPE, operator, defaultRates[operator], now],
    );
  }
  return { applied };
}
