// The overview's charts: spend and messages per day by final outcome, and delivery rate per carrier,
// over the last days. Aggregated in the database (one GROUP BY each, on indexed account columns),
// never by loading messages into memory. A message its owner cancelled is counted apart from the
// failed ones and stays out of the delivery rate: no carrier ever had it.
import { sql } from "@/lib/db/client";
import { dayOfColumn, toDbTime } from "@/lib/db/sql";
import { operators, type Operator } from "@/lib/carriers/operators";
import { parseOneOf, parseRows } from "@/lib/db/stores/shared/rows";
import { isTestView, type ViewMode } from "./view-mode";
import { SQL_STATUS } from "@/lib/model/message-status";
import { CANCELLED_RESPONSE } from "@/lib/delivery/fail-queued-messages";

export const STATS_DAYS = 14;

export type DayStats = {
  day: string;
  delivered: number;
  sent: number;
  failed: number;
  cancelled: number;
  inFlight: number;
  spend: bigint;
};
/** `final`: delivered, sent or failed; what the delivery rate divides by. */
export type CarrierStats = { operator: Operator; delivered: number; final: number };
/** Where a message stands in the day's counts. */
const OUTCOMES = ["delivered", "sent", "failed", "cancelled", "inFlight"] as const;
export type AccountStats = { days: DayStats[]; carriers: CarrierStats[]; totals: { messages: number; delivered: number; spend: bigint } };

function dayOf(column: string): string {
  return dayOfColumn(sql(), column);
}

function lastDays(now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: STATS_DAYS }, (_, index) =>
    new Date(today - (STATS_DAYS - 1 - index) * 86_400_000).toISOString().slice(0, 10),
  );
}

/**
 * The view's figures: live or test-key messages. Spend is the ledger's holds net of releases, and
 * test-key messages are never charged, so the test view's spend is zero.
 */
export async function getAccountStats(accountId: string, mode: ViewMode, now = new Date()): Promise<AccountStats> {
  const days = lastDays(now);
  const since = toDbTime(new Date(`${days[0]}T00:00:00Z`));
  const outcome = `CASE WHEN "status" = ${SQL_STATUS.failed} AND "operatorResponse" = '${CANCELLED_RESPONSE}' THEN 'cancelled'
    WHEN "status" = ${SQL_STATUS.failed} THEN 'failed' WHEN "deliveredAt" IS NOT NULL THEN 'delivered' WHEN "status" = ${SQL_STATUS.success} THEN 'sent' ELSE 'inFlight' END`;
  const [messages, spend] = await Promise.all([
    sql().all(
      `SELECT ${dayOf(`"createdAt"`)} AS "day", "operator", ${outcome} AS "outcome", COUNT(*) AS "count"
       FROM "Message" WHERE "accountId" = ? AND "createdAt" >= ? AND "test" = ?
       GROUP BY ${dayOf(`"createdAt"`)}, "operator", ${outcome}`,
      [accountId, since, isTestView(mode)],
    ),
    isTestView(mode)
      ? []
      : sql().all(
          `SELECT ${dayOf(`"createdAt"`)} AS "day", -SUM("amount") AS "spent"
       FROM "LedgerEntry" WHERE "accountId" = ? AND "createdAt" >= ? AND "kind" IN ('hold', 'release')
       GROUP BY ${dayOf(`"createdAt"`)}`,
          [accountId, since],
        ),
  ]);
  const byDay = new Map(
    days.map((day) => [day, { day, delivered: 0, sent: 0, failed: 0, cancelled: 0, inFlight: 0, spend: 0n } as DayStats]),
  );
  const carriers = new Map(operators.map((operator) => [operator, { operator, delivered: 0, final: 0 } as CarrierStats]));
  for (const row of parseRows(messages, { day: "text", operator: "text", outcome: "text", count: "integer" })) {
    const { count } = row;
    const outcome = parseOneOf(row.outcome, OUTCOMES, "outcome");
    const day = byDay.get(row.day);
    if (day) day[outcome] += count;
    const carrier = carriers.get(parseOneOf(row.operator, operators, "operator"));
    if (carrier && outcome !== "inFlight" && outcome !== "cancelled") {
      carrier.final += count;
      if (outcome === "delivered") carrier.delivered += count;
    }
  }
  for (const row of parseRows(spend, { day: "text", spent: "bigint" })) {
    const day = byDay.get(row.day);
    if (day) day.spend = row.spent;
  }
  const dayStats = [...byDay.values()];
  return {
    days: dayStats,
    carriers: [...carriers.values()],
    totals: {
      messages: dayStats.reduce((total, day) => total + day.delivered + day.sent + day.failed + day.cancelled + day.inFlight, 0),
      delivered: dayStats.reduce((total, day) => total + day.delivered, 0),
      spend: dayStats.reduce((total, day) => total + day.spend, 0n),
    },
  };
}
