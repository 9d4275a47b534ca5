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

export async function setAccountTimeZone(input: { accountId: string; timeZone: string; actor: string }): Promise<string> {
  if (!isTimeZone(input.timeZone))
    throw AppError.validation([{ field: "time_zone", description: "must be an IANA time zone, e.g. Africa/Harare" }]);
  const before = await db().account.findUnique({ where: { id: input.accountId }, select: { timeZone: true } });
  if (!before) throw AppError.notFound("Account");
  if (before.timeZone === input.timeZone) return input.timeZone;
  await db().account.update({ where: { id: input.accountId }, data: { timeZone: input.timeZone } });
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "account.time_zone_set",
    targetType: "account",
    targetId: input.accountId,
    data: { from: before.timeZone, to: input.timeZone },
  });
  return input.timeZone;
}
