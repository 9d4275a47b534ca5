// Per-carrier price of one segment: an account's override, else the platform default.
import { db, sql } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Operator } from "@/lib/carriers/operators";
import { DEFAULT_SCOPE, resolveRates } from "@/lib/model/rates";
import { parseRows } from "@/lib/db/stores/shared/rows";

export { DEFAULT_SCOPE, resolveRates, type RateRow } from "@/lib/model/rates";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/** Seed values for a fresh platform, in ten-thousandths of a currency unit per segment. */
export const defaultRates: Record<Operator, bigint> = { econet: 350n, netone: 300n, telecel: 320n };

export async function setRate(input: {
  operator: Operator;
  pricePerSegment: bigint;
  accountId?: string | null;
  actor: string;
}): Promise<void> {
  if (input.pricePerSegment < 0n) {
    throw AppError.validation([{ field: "price", description: "must not be negative" }]);
  }
  if (input.accountId && !(await db().account.findUnique({ where: { id: input.accountId }, select: { id: true } }))) {
    throw AppError.notFound("Account");
  }
  const scope = input.accountId ?? DEFAULT_SCOPE;
  await db().rate.upsert({
    where: { scope_operator: { scope, operator: input.operator } },
    create: { scope, accountId: input.accountId ?? null, operator: input.operator, pricePerSegment: input.pricePerSegment },
    update: { pricePerSegment: input.pricePerSegment },
  });
  await recordAuditEvent({
    accountId: input.accountId ?? null,
    actor: input.actor,
    action: "rate.set",
    targetType: "rate",
    targetId: `${scope}:${input.operator}`,
    data: { operator: input.operator, pricePerSegment: input.pricePerSegment.toString() },
  });
}

/**
 * The price per segment of each carrier for an account. A carrier with no rate at all cannot be
 * priced. Raw SQL: read on every group-committed send batch, where a Prisma query's CPU shows.
 */
export async function getAccountRates(accountId: string): Promise<Record<Operator, bigint>> {
  const rows = await sql().all(
    `SELECT "scope", "operator", "pricePerSegment" FROM "Rate" WHERE "scope" IN (?, ?)`,
    [DEFAULT_SCOPE, accountId],
    {
      prepared: true,
    },
  );
  return resolveRates(parseRows(rows, { scope: "text", operator: "text", pricePerSegment: "bigint" }), accountId);
}
