import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { createApiKey, type CreatedApiKey } from "./create-api-key";
import { isKeyActive, type ApiKeyRecord } from "./list-api-keys";

export const rollGracePeriods = { now: 0, "1h": 3_600_000, "24h": 86_400_000, "7d": 604_800_000 } as const;
export type RollGracePeriod = keyof typeof rollGracePeriods;

/**
 * Replaces a key (as Stripe and Unkey do): a new key with the same name and mode, while the old one
 * keeps working for the grace period and then reads as revoked. A key is rolled once: rolling it again
 * in its grace period would move its end (a key meant to stop in an hour kept for a week) and give it
 * a second replacement, so that is a CONFLICT and its replacement is the key to roll.
 */
export async function rollApiKey(input: {
  accountId: string;
  keyId: string;
  grace: RollGracePeriod;
  actor: string;
}): Promise<{ replacement: CreatedApiKey; old: Pick<ApiKeyRecord, "id" | "expiresAt"> }> {
  const old = await db().apiKey.findFirst({ where: { id: input.keyId, accountId: input.accountId } });
  if (!old || !isKeyActive(old)) throw AppError.notFound("API key");
  const expiresAt = new Date(Date.now() + rollGracePeriods[input.grace]);
  // Conditional on the key not being rolled yet: of two rolls at once, one replaces it.
  const { count } = await db().apiKey.updateMany({
    where: { id: old.id, active: true, expiresAt: null },
    data: input.grace === "now" ? { active: false, revokedAt: expiresAt, expiresAt } : { expiresAt },
  });
  if (count === 0) throw new AppError("CONFLICT", "This key was already rolled; roll its replacement instead");
  const replacement = await createApiKey({
    accountId: input.accountId,
    name: old.name,
    mode: old.mode as "live" | "test",
    actor: input.actor,
  });
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "key.rolled",
    targetType: "api_key",
    targetId: old.id,
    data: { replacement: replacement.id, grace: input.grace, expiresAt: expiresAt.toISOString() },
  });
  return { replacement, old: { id: old.id, expiresAt } };
}
