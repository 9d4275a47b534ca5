import { db } from "@/lib/db/client";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { KeyMode } from "./token";

/**
 * Revokes a key of the account at once. An unknown id, or another account's, changes nothing and is
 * not an error (the spec's revoke answers 200 either way); so does a live key's id given with `mode`
 * "test" (a test key cannot revoke live keys). Returns whether a key was revoked.
 */
export async function revokeApiKey(input: { accountId: string; keyId: string; mode?: KeyMode; actor: string }): Promise<boolean> {
  const now = new Date();
  const { count } = await db().apiKey.updateMany({
    where: { id: input.keyId, accountId: input.accountId, mode: input.mode, active: true },
    data: { active: false, revokedAt: now },
  });
  if (count === 0) return false;
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "key.revoked",
    targetType: "api_key",
    targetId: input.keyId,
  });
  return true;
}
