// Whether keys still authenticate, read in the statement or transaction of the work they authorise:
// a key revoked or expired since its request was authenticated is refused with the 401 of
// authentication (unknownApiKeyError), wherever that is found out.
import type { SqlExecutor } from "@/lib/db/sql";
import { getStores } from "@/lib/db/stores";

export { isApiKeyUsable, isKeyExpired, unknownApiKeyError } from "@/lib/model/api-keys";

/**
 * The ids among keyIds whose keys no longer authenticate (revoked, expired or gone), read through
 * executor. `holdUntilCommit` (in a transaction that uses the keys): a revoke that commits while the
 * transaction runs waits for it, and the transaction cannot commit after a revoke it did not see.
 */
export function findUnusableApiKeys(
  executor: SqlExecutor,
  keyIds: readonly string[],
  now: Date,
  options: { holdUntilCommit?: boolean } = {},
): Promise<Set<string>> {
  return getStores().keys.findUnusable(executor, keyIds, now, options);
}
