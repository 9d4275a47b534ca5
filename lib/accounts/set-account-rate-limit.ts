// An account's own per-key API request limit (requests per second), or the platform's
// RATE_LIMIT_PER_SECOND when it has none. Audited.
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/** Sets the account's limit; null returns it to the platform default. */
export async function setAccountRateLimit(input: { accountId: string; limit: number | null; actor: string }): Promise<void> {
  const changed = await db().account.updateMany({ where: { id: input.accountId }, data: { rateLimitPerSecond: input.limit } });
  if (changed.count === 0) throw AppError.notFound("Account");
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "account.rate_limit_set",
    targetType: "account",
    targetId: input.accountId,
    data: { limit: input.limit },
  });
}
