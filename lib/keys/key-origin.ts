// Who stands behind an API key: whoever created it, followed through the keys that created keys.
// The API has no roles of its own, so a change only an account owner may make in the dashboard
// (lib/auth/permissions.ts) is made through the API only with a key an owner stands behind today.
import { db } from "@/lib/db/client";

/** Longer than any real chain of keys creating keys; it only bounds the walk. */
const MAX_CHAIN = 32;

/**
 * True when the key's chain of creators ends at a current owner of `accountId`, or at the platform's
 * own tools (the admin CLI): a key a developer created, or one whose creator is no longer an owner
 * of the account (removed, disabled, or now a developer), is false.
 */
export async function isOwnersKey(keyId: string, accountId: string): Promise<boolean> {
  let creator = `key:${keyId}`;
  for (let step = 0; creator.startsWith("key:"); step++) {
    if (step === MAX_CHAIN) return false;
    const key = await db().apiKey.findUnique({
      where: { id: creator.slice("key:".length) },
      select: { accountId: true, createdById: true },
    });
    if (key?.accountId !== accountId || !key.createdById) return false;
    creator = key.createdById;
  }
  if (!creator.startsWith("user:")) return true;
  const user = await db().user.findUnique({
    where: { id: creator.slice("user:".length) },
    select: { accountId: true, role: true, disabledAt: true },
  });
  return user?.accountId === accountId && user.role === "owner" && user.disabledAt === null;
}
