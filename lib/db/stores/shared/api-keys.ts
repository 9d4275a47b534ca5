// Whether API keys still authenticate, read through an executor (a transaction that uses them, or
// the pool). `lock`, the engine's: appended to hold the rows until COMMIT.
import { fromDbTimeOrNull, type SqlExecutor } from "@/lib/db/sql";
import { inList } from "@/lib/db/batch-lists";
import { isApiKeyUsable } from "@/lib/model/api-keys";

/** The ids among keyIds whose keys no longer authenticate (revoked, expired or gone). */
export async function findUnusableKeys(tx: SqlExecutor, keyIds: readonly string[], now: Date, lock: string): Promise<Set<string>> {
  if (keyIds.length === 0) return new Set();
  const ids = inList(keyIds);
  const rows = await tx.all<{ id: string; active: boolean | number; expiresAt: unknown }>(
    `SELECT "id", "active", "expiresAt" FROM "ApiKey" WHERE "id" IN ${ids.text}${lock}`,
    ids.params,
    { prepared: true },
  );
  const usable = new Set(
    rows
      .filter((row) => isApiKeyUsable({ active: Boolean(row.active), expiresAt: fromDbTimeOrNull(row.expiresAt) }, now.getTime()))
      .map((row) => row.id),
  );
  return new Set(keyIds.filter((id) => !usable.has(id)));
}
