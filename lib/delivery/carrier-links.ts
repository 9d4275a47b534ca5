// The state of each carrier link as the operator's page and /metrics show it. Each dispatcher
// writes a row per live bind every few seconds (CarrierLink); the page reads the rows still fresh,
// so with several workers it shows every bind and sums their windows, caps and rates. Queue depth
// and the oldest queued message are read from the queue itself, the same for every worker.
import { sql } from "@/lib/db/client";
import { fromDbTime, fromDbTimeOrNull, toDbTime } from "@/lib/db/sql";
import { operators, type Operator } from "@/lib/carriers/operators";
import { listCarrierPauses } from "@/lib/carriers/carrier-pauses";
import { latencyQuantileMs, mergeMinutes, type MinuteStats } from "./hour-stats";

/** bound, binding and backing-off come from the connection; paused and down are the dispatcher's view. */
export type LinkStateName = "bound" | "binding" | "backing-off" | "paused" | "down" | "stopped";

export type LinkReport = {
  operator: Operator;
  state: LinkStateName;
  since: Date;
  nextTryAt: Date | null;
  host: string;
  windowUsed: number;
  windowSize: number;
  tps: number;
  sentLastMinute: number;
  /** The last hour, per minute (./hour-stats.ts). */
  minutes: MinuteStats[];
};

export type CarrierBind = LinkReport & { owner: string; updatedAt: Date };

export type QueueStats = { depth: number; oldestReceivedAt: Date | null };

export type CarrierOverview = {
  operator: Operator;
  paused: { reason: string; actor: string; pausedAt: Date } | null;
  binds: CarrierBind[];
  /** Sums over the binds (every worker's). */
  windowUsed: number;
  windowSize: number;
  tps: number;
  sentLastMinute: number;
  /** The last hour over every bind: per minute, totals, and acceptance-to-carrier latency quantiles. */
  minutes: MinuteStats[];
  lastHour: {
    sent: number;
    errors: number;
    throttled: number;
    delivered: number;
    submitP50Ms: number | null;
    submitP95Ms: number | null;
    receiptP50Ms: number | null;
    receiptP95Ms: number | null;
  };
  queue: QueueStats;
};

/** A report older than this belongs to a worker that stopped or died: not shown. */
export const LINK_REPORT_STALE_MS = 30_000;
/** Rows of dead workers are deleted after this. */
const LINK_ROW_RETENTION_MS = 60 * 60_000;

export async function writeLinkReports(owner: string, reports: LinkReport[], now = new Date()): Promise<void> {
  const database = sql();
  for (const report of reports) {
    await database.run(
      `INSERT INTO "CarrierLink" ("id", "owner", "operator", "state", "since", "nextTryAt", "host", "windowUsed", "windowSize", "tps", "sentLastMinute", "minutes", "updatedAt")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT ("id") DO UPDATE SET "state" = excluded."state", "since" = excluded."since", "nextTryAt" = excluded."nextTryAt",
         "host" = excluded."host", "windowUsed" = excluded."windowUsed", "windowSize" = excluded."windowSize", "tps" = excluded."tps",
         "sentLastMinute" = excluded."sentLastMinute", "minutes" = excluded."minutes", "updatedAt" = excluded."updatedAt"`,
      [
        `${owner}|${report.operator}`,
        owner,
        report.operator,
        report.state,
        toDbTime(report.since),
        report.nextTryAt ? toDbTime(report.nextTryAt) : null,
        report.host,
        report.windowUsed,
        report.windowSize,
        report.tps,
        report.sentLastMinute,
        JSON.stringify(report.minutes),
        toDbTime(now),
      ],
    );
  }
  await database.run(`DELETE FROM "CarrierLink" WHERE "updatedAt" < ?`, [toDbTime(new Date(now.getTime() - LINK_ROW_RETENTION_MS))]);
}

/** At a graceful stop: this worker's binds are no longer its to report. */
export async function removeLinkReports(owner: string): Promise<void> {
  await sql().run(`DELETE FROM "CarrierLink" WHERE "owner" = ?`, [owner]);
}

/**
 * Live messages waiting per carrier, and the acceptance time of the one first in line (the earliest
 * due; a message waiting out a retry's backoff may be older). Both read the claim's index only (a
 * count over the carrier's range, one row for the first), cheap enough to run every few seconds
 * with a large queue.
 */
export async function readQueueStats(): Promise<Map<Operator, QueueStats>> {
  const database = sql();
  const stats = new Map<Operator, QueueStats>();
  for (const operator of operators) {
    const counted = await database.get<{ depth: unknown }>(
      `SELECT COUNT(*) AS "depth" FROM "Message" WHERE "status" = 'enqueued' AND "operator" = ? AND "test" = ?`,
      [operator, false],
    );
    const first = await database.get<{ receivedAt: unknown }>(
      `SELECT "receivedAt" FROM "Message" WHERE "status" = 'enqueued' AND "operator" = ? AND "test" = ? ORDER BY "nextAttemptAt" LIMIT 1`,
      [operator, false],
    );
    stats.set(operator, { depth: Number(counted?.depth ?? 0), oldestReceivedAt: fromDbTimeOrNull(first?.receivedAt) });
  }
  return stats;
}

/** Every carrier: its pause, the binds reported recently, their sums and the queue. */
export async function readCarrierOverview(now = new Date()): Promise<CarrierOverview[]> {
  const [pauses, queue, rows] = await Promise.all([
    listCarrierPauses(),
    readQueueStats(),
    sql().all<Record<string, unknown>>(`SELECT * FROM "CarrierLink" WHERE "updatedAt" >= ? ORDER BY "operator", "owner"`, [
      toDbTime(new Date(now.getTime() - LINK_REPORT_STALE_MS)),
    ]),
  ]);
  const binds: CarrierBind[] = rows.map((row) => ({
    owner: String(row.owner),
    operator: row.operator as Operator,
    state: row.state as LinkStateName,
    since: fromDbTime(row.since),
    nextTryAt: fromDbTimeOrNull(row.nextTryAt),
    host: String(row.host),
    windowUsed: Number(row.windowUsed),
    windowSize: Number(row.windowSize),
    tps: Number(row.tps),
    sentLastMinute: Number(row.sentLastMinute),
    minutes: parseMinutes(row.minutes),
    updatedAt: fromDbTime(row.updatedAt),
  }));
  return operators.map((operator) => {
    const own = binds.filter((bind) => bind.operator === operator);
    const pause = pauses.find((entry) => entry.operator === operator);
    const sum = (pick: (bind: CarrierBind) => number) => own.reduce((total, bind) => total + pick(bind), 0);
    const minutes = mergeMinutes(own.map((bind) => bind.minutes));
    const hourly = (pick: (stats: MinuteStats) => number) => minutes.reduce((total, stats) => total + pick(stats), 0);
    return {
      operator,
      paused: pause ? { reason: pause.reason, actor: pause.actor, pausedAt: pause.pausedAt } : null,
      binds: own,
      windowUsed: sum((bind) => bind.windowUsed),
      windowSize: sum((bind) => bind.windowSize),
      tps: sum((bind) => bind.tps),
      sentLastMinute: sum((bind) => bind.sentLastMinute),
      minutes,
      lastHour: {
        sent: hourly((stats) => stats.sent),
        errors: hourly((stats) => stats.errors),
        throttled: hourly((stats) => stats.throttled),
        delivered: hourly((stats) => stats.delivered ?? 0),
        submitP50Ms: latencyQuantileMs(minutes, 0.5),
        submitP95Ms: latencyQuantileMs(minutes, 0.95),
        receiptP50Ms: latencyQuantileMs(minutes, 0.5, "receiptLatency"),
        receiptP95Ms: latencyQuantileMs(minutes, 0.95, "receiptLatency"),
      },
      queue: queue.get(operator)!,
    };
  });
}

/** The stored minutes of a bind, only those of the last hour; a malformed value reads as none. */
function parseMinutes(value: unknown, now = Date.now()): MinuteStats[] {
  try {
    const parsed: unknown = JSON.parse(String(value ?? "[]"));
    const from = Math.floor(now / 60_000) - 59;
    return Array.isArray(parsed) ? (parsed as MinuteStats[]).filter((stats) => Number(stats?.minute) >= from) : [];
  } catch {
    return [];
  }
}
