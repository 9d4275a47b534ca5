import { db, sql } from "@/lib/db/client";
import { parseRowOrNull } from "@/lib/db/stores/shared/rows";
import { AppError } from "@/lib/errors";
import { HELD_STATUSES, statusList } from "@/lib/model/message-status";

export type Balance = { available: bigint; held: bigint; currency: string };

/** available: the balance (holds already taken); held: charges of live messages not yet final. */
export async function getBalance(accountId: string): Promise<Balance> {
  const account = await db().account.findUnique({ where: { id: accountId }, select: { balance: true, currency: true } });
  if (!account) throw AppError.notFound("Account");
  const row = await sql().get(
    `SELECT COALESCE(SUM("charge"), 0) AS "held" FROM "Message" WHERE "accountId" = ? AND "test" = ? AND "status" IN ${statusList(HELD_STATUSES)}`,
    [accountId, false],
  );
  const held = parseRowOrNull(row, { held: "bigint" })?.held ?? 0n;
  return { available: account.balance, held, currency: account.currency };
}
