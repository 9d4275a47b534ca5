import crypto from "node:crypto";
import { sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { operators } from "@/lib/carriers/operators";
import { DEFAULT_SCOPE, defaultRates } from "./rates";

/** Gives every carrier a platform rate unless it has one; safe when several processes start at once (insert-or-skip). */
export async function seedDefaultRates(): Promise<void> {
  const now = toDbTime(new Date());
  for (const operator of operators) {
    await sql().run(
      `INSERT INTO "Rate" ("id", "scope", "accountId", "operator", "pricePerSegment", "updatedAt") VALUES (?, ?, NULL, ?, ?, ?)
       ON CONFLICT ("scope", "operator") DO NOTHING`,
      [crypto.randomUUID(), DEFAULT_SCOPE, operator, defaultRates[operator], now],
    );
  }
}
