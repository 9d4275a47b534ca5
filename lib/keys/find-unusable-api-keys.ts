// Whether keys still authenticate, read in the statement or transaction of the work they authorise:
// a key revoked or expired since its request was authenticated is refused with the 401 of
// authentication (unknownApiKeyError), wherever that is found out.
import { fromDbTimeOrNull, type SqlExecutor } from "@/lib/db/sql";
import { inList } from "@/lib/db/batch-lists";
import { isApiKeyUsable } from "@/lib/model/api-keys";

export { isApiKeyUsable, isKeyExpired, unknownApiKeyError } from "@/lib/model/api-keys";

/**
 * The ids among keyIds whose keys no longer authenticate (revoked, expired or gone), read through
 * executor. `holdUntilCommit` (in a transaction that uses the keys): on PostgreSQL the rows are read
 * FOR SHARE, so a revoke that commits while the transaction runs waits for it, and the transaction
 * cannot commit after a revoke it did not see. SQLite's single writer already orders the two.
 */
export async function findUnusableApiKeys(
  executor: SqlExecutor,
  keyIds: readonly string[],
  now: Date,
  options: { holdUntilCommit?: boolean } = {},
): Promise<Set<string>> {
  if (keyIds.length === 0) return new Set();
  const lock = options.holdUntilCommit && executor.dialect === "postgres" ? ` ORDER BY "id" FOR SHARE` : "";
  const ids = inList(keyIds);
  const rows = await executor.all<{ id: string; active: unknown; expiresAt: unknown }>(
    `SELECT "id", "active", "expiresAt" FROM "ApiKey" WHERE "id" IN ${ids.text}${lock}`,
    ids.params,
    { prepared: true },
  );
  // SQLite answers booleans as 0/1, PostgreSQL as true/false.
  const usable = new Set(
    rows
      .filter((row) => isApiKeyUsable({ active: Boolean(row.active), expiresAt: fromDbTimeOrNull(row.expiresAt) }, now.getTime()))
      .map((row) => row.id),
  );
  return new Set(keyIds.filter((id) => !usable.has(id)));
}
