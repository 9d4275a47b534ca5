import { getDatabase } from "./client";
import { migrate } from "./migrate";
import { db } from "./client";
import { operators } from "@/lib/carriers/operators";
import { DEFAULT_SCOPE, defaultRates } from "@/lib/rates/rates";

/** Brings the database to the current schema and makes sure every carrier has a platform rate. */
export async function prepareDatabase(): Promise<{ applied: string[] }> {
  const applied = await migrate(getDatabase().sql);
  for (const operator of operators) {
    const existing = await db().rate.findUnique({ where: { scope_operator: { scope: DEFAULT_SCOPE, operator } } });
    if (!existing) {
      await db().rate.create({ data: { scope: DEFAULT_SCOPE, operator, pricePerSegment: defaultRates[operator] } });
    }
  }
  return { applied };
}
