// A Message row read with raw SQL (lib/db/sql.ts) as the Prisma Client would return it: the two
// engines hand back timestamps, booleans and BIGINTs in different JavaScript types.
import type { Message } from "@/lib/db/generated/sqlite";
import { fromDbTime, fromDbTimeOrNull, type Row } from "@/lib/db/sql";

export type { Message };

export function parseMessageRow(row: Row): Message {
  return {
    ...(row as unknown as Message),
    charge: BigInt(row.charge as number | string | bigint),
    test: row.test === true || row.test === 1,
    nextAttemptAt: fromDbTime(row.nextAttemptAt),
    leaseUntil: fromDbTimeOrNull(row.leaseUntil),
    receivedAt: fromDbTime(row.receivedAt),
    createdAt: fromDbTime(row.createdAt),
    updatedAt: fromDbTime(row.updatedAt),
    dispatchedAt: fromDbTimeOrNull(row.dispatchedAt),
    deliveredAt: fromDbTimeOrNull(row.deliveredAt),
    finishedAt: fromDbTimeOrNull(row.finishedAt),
    sendAt: fromDbTimeOrNull(row.sendAt),
    expiresAt: fromDbTimeOrNull(row.expiresAt),
    turnAt: fromDbTimeOrNull(row.turnAt),
    validityPeriod: row.validityPeriod === null || row.validityPeriod === undefined ? null : Number(row.validityPeriod),
  };
}
