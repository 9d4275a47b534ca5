import { sql } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { seedDefaultRates } from "@/lib/rates/seed-default-rates";

/**
 * Brings the database to the current schema and makes sure every carrier has a platform rate.
 * Safe when several processes start at once (the migrator locks; rates insert-or-skip).
 */
export async function prepareDatabase(): Promise<{ applied: string[] }> {
  const applied = await migrate(sql());
  await seedDefaultRates();
  return { applied };
}
