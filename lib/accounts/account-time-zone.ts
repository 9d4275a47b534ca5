// The account's time zone: the dashboard reads the times its users type (a scheduled send) in it.
// Owners change it; the change is audited.
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { isTimeZone } from "@/lib/model/time-zones";

export async function getAccountTimeZone(accountId: string): Promise<string> {
  const account = await db().account.findUnique({ where: { id: accountId }, select: { timeZone: true } });
  if (!account) throw AppError.notFound("Account");
  return account.timeZone;
}

/** Sets the zone; the audit row names the zone it replaced, even when two owners save at once. */
export async function setAccountTimeZone(input: { accountId: string; timeZone: string; actor: string }): Promise<string> {
  if (!isTimeZone(input.timeZone))
    throw AppError.validation([{ field: "time_zone", description: "must be an IANA time zone, e.g. Africa/Harare" }]);
  for (;;) {
    const before = await getAccountTimeZone(input.accountId);
    if (before === input.timeZone) return input.timeZone;
    // Only over the zone just read: a save in between makes this one read again.
    const changed = await db().account.updateMany({
      where: { id: input.accountId, timeZone: before },
      data: { timeZone: input.timeZone },
    });
    if (changed.count === 0) continue;
    await recordAuditEvent({
      accountId: input.accountId,
      actor: input.actor,
      action: "account.time_zone_set",
      targetType: "account",
      targetId: input.accountId,
      data: { from: before, to: input.timeZone },
    });
    return input.timeZone;
  }
}
