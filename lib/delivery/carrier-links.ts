// The state of each carrier link as the operator's page and /metrics show it. Each dispatcher
// writes a row per live bind every few seconds (CarrierLink): a carrier may have several binds
// (shared, or primary and standby), each with its role and whether it is the one in use. The page
// reads the rows still fresh, so with several workers it shows every bind and sums their windows and
// rates. The receipts awaited come from the same reports: the last hour's acceptances less the
// receipts of those acceptances, summed over every worker (./hour-stats.ts). Queue depth and the
// message first in line (per priority) are read from the messages themselves, the same for every
// worker.
import { z } from "zod";
import { sql } from "@/lib/db/client";
import { highTurnsBefore } from "@/lib/messages/queue-turns";
import { toDbTime } from "@/lib/db/sql";
import { parseOneOf, parseRowOrNull, parseRows } from "@/lib/db/stores/shared/rows";
import { operators, type Operator } from "@/lib/carriers/operators";
import { priorities, type Priority } from "@/lib/model/sends";
import { bindRoles, type BindRole } from "@/lib/smpp/carrier-config";
import { listCarrierPauses } from "@/lib/carriers/carrier-pauses";
import { latencyQuantileMs, mergeMinutes, receiptsAwaited, type MinuteStats } from "./hour-stats";
import { SQL_STATUS } from "@/lib/model/message-status";

/** bound, binding and backing-off come from the connection; paused and down are the dispatcher's view. */
export const linkStates = ["bound", "binding", "backing-off", "paused", "down", "stopped"] as const;
export type LinkStateName = (typeof linkStates)[number];

export type LinkReport = {
  operator: Operator;
  /** The bind's name among the carrier's: host:port (#2, #3 for more binds to the same one). */
  bind: string;
  role: BindRole;
  /** Whether this bind sends now: a standby only while it stands in for its primary. */
  active: boolean;
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

export type PriorityQueueStats = { depth: number; oldestReceivedAt: Date | null };

export type QueueStats = PriorityQueueStats & { byPriority: Record<Priority, PriorityQueueStats> };

/** A carrier's last hour over every bind: totals, and acceptance-to-carrier latency quantiles. */
export type CarrierHourTotals = {
  sent: number;
  errors: number;
  throttled: number;
  delivered: number;
  submitP50Ms: number | null;
  submitP95Ms: number | null;
  receiptP50Ms: number | null;
  receiptP95Ms: number | null;
  /** Of the messages the carrier accepted in the last hour, those whose receipt has not come yet. */
  receiptsAwaited: number;
};

export type CarrierOverview = {
  operator: Operator;
  paused: { reason: string; actor: string; pausedAt: Date } | null;
  binds: CarrierBind[];
  /** Sums over the binds (every worker's); window size and tps count the binds in use only (binds used together share one cap). */
  windowUsed: number;
  windowSize: number;
  tps: number;
  sentLastMinute: number;
  /** The last hour over every bind: per minute, totals, and acceptance-to-carrier latency quantiles. */
  minutes: MinuteStats[];
  lastHour: CarrierHourTotals;
  queue: QueueStats;
};

const ROLE_ORDER: Record<BindRole, number> = { primary: 0, standby: 1, shared: 2 };

/** A report older than this belongs to a worker that stopped or died: not shown. */
export const LINK_REPORT_STALE_MS = 30_000;
/** Rows of dead workers are deleted after this. */
const LINK_ROW_RETENTION_MS = 60 * 60_000;

export async function writeLinkReports(owner: string, reports: LinkReport[], now = new Date()): Promise<void> {
  const database = sql();
  for (const report of reports) {
    await database.run(
      `INSERT INTO "CarrierLink" ("id", "owner", "operator", "bind", "role", "active", "state", "since", "nextTryAt", "host", "windowUsed", "windowSize", "tps", "sentLastMinute", "minutes", "updatedAt")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT ("id") DO UPDATE SET "role" = excluded."role", "active" = excluded."active", "state" = excluded."state", "since" = excluded."since", "nextTryAt" = excluded."nextTryAt",
         "host" = excluded."host", "windowUsed" = excluded."windowUsed", "windowSize" = excluded."windowSize", "tps" = excluded."tps",
         "sentLastMinute" = excluded."sentLastMinute", "minutes" = excluded."minutes", "updatedAt" = excluded."updatedAt"`,
      [
        `${owner}|${report.operator}|${report.bind}`,
        owner,
        report.operator,
        report.bind,
        report.role,
        report.active,
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
 * Live messages waiting per carrier and priority, and the acceptance time of the one first in line
 * in each (the first in turn order, as the claim takes them: the oldest of the account being
 * served, not necessarily the oldest of all; over both priorities, the older of the two). Every
 * read is of the claim index alone, a count of the carrier's range or a seek to its first turn.
 */
export async function readQueueStats(): Promise<Map<Operator, QueueStats>> {
  const database = sql();
  const stats = new Map<Operator, QueueStats>();
  // A message's priority shows in its turn (high turns lie years back).
  const highBefore = highTurnsBefore(Date.now());
  const turnsOf: Record<Priority, string> = { high: `"turn" < ?`, normal: `"turn" >= ?` };
  for (const operator of operators) {
    // A COUNT always returns its one row.
    const [counted] = parseRows(
      await database.all(
        `SELECT COUNT(*) AS "depth", COALESCE(SUM(CASE WHEN "turn" < ? THEN 1 ELSE 0 END), 0) AS "high"
         FROM "Message" WHERE "status" = ${SQL_STATUS.enqueued} AND "operator" = ? AND "test" = ?`,
        [highBefore, operator, false],
      ),
      { depth: "integer", high: "integer" },
    );
    const depths: Record<Priority, number> = { high: counted.high, normal: counted.depth - counted.high };
    const statsOf = async (priority: Priority): Promise<PriorityQueueStats> => {
      const depth = depths[priority];
      if (depth === 0) return { depth, oldestReceivedAt: null };
      const first = parseRowOrNull(
        await database.get(
          `SELECT "receivedAt" FROM "Message"
           WHERE "status" = ${SQL_STATUS.enqueued} AND "operator" = ? AND "test" = ? AND ${turnsOf[priority]} ORDER BY "turn" LIMIT 1`,
          [operator, false, highBefore],
        ),
        { receivedAt: "time" },
      );
      return { depth, oldestReceivedAt: first?.receivedAt ?? null };
    };
    const byPriority: Record<Priority, PriorityQueueStats> = { high: await statsOf("high"), normal: await statsOf("normal") };
    const firstInLine = priorities
      .map((priority) => byPriority[priority].oldestReceivedAt?.getTime())
      .filter((at): at is number => at !== undefined);
    stats.set(operator, {
      depth: priorities.reduce((total, priority) => total + byPriority[priority].depth, 0),
      oldestReceivedAt: firstInLine.length > 0 ? new Date(Math.min(...firstInLine)) : null,
      byPriority,
    });
  }
  return stats;
}

const CARRIER_LINK_ROW = {
  owner: "text",
  operator: "text",
  bind: "text",
  role: "text",
  active: "boolean",
  state: "text",
  since: "time",
  nextTryAt: "time?",
  host: "text",
  windowUsed: "integer",
  windowSize: "integer",
  tps: "integer",
  sentLastMinute: "integer",
  minutes: "text",
  updatedAt: "time",
} as const;

/** The binds every worker reported recently, per worker the primary before its standbys. */
async function readFreshBinds(now: Date): Promise<CarrierBind[]> {
  const rows = parseRows(
    await sql().all(`SELECT * FROM "CarrierLink" WHERE "updatedAt" >= ? ORDER BY "operator", "owner", "id"`, [
      toDbTime(new Date(now.getTime() - LINK_REPORT_STALE_MS)),
    ]),
    CARRIER_LINK_ROW,
  );
  const binds: CarrierBind[] = rows.map((row) => ({
    ...row,
    operator: parseOneOf(row.operator, operators, "operator"),
    role: parseOneOf(row.role, bindRoles, "role"),
    state: parseOneOf(row.state, linkStates, "state"),
    minutes: parseMinutes(row.minutes, now.getTime()),
  }));
  return binds.sort(
    (a, b) => a.operator.localeCompare(b.operator) || a.owner.localeCompare(b.owner) || ROLE_ORDER[a.role] - ROLE_ORDER[b.role],
  );
}

/** What the other workers reported recently: a dispatcher's view of its peers, read once per report. */
export async function readOtherWorkersBinds(owner: string, now = new Date()): Promise<CarrierBind[]> {
  return (await readFreshBinds(now)).filter((bind) => bind.owner !== owner);
}

/**
 * Per carrier, the processes dispatching to it: this one and every other whose recent report has a
 * bind of the carrier in use and not down (binding, backing off, bound or paused). A process dead or
 * stopped drops out once its report is stale or removed, and the others take up its share.
 */
export function countDispatchersPerCarrier(otherWorkersBinds: CarrierBind[]): Map<Operator, number> {
  const others = new Map<Operator, Set<string>>();
  for (const bind of otherWorkersBinds) {
    if (!bind.active || bind.state === "down" || bind.state === "stopped") continue;
    others.set(bind.operator, (others.get(bind.operator) ?? new Set()).add(bind.owner));
  }
  return new Map(operators.map((operator) => [operator, (others.get(operator)?.size ?? 0) + 1]));
}

/** Per carrier, the receipts awaited of the last hour's acceptances, summed over the given reports (every worker's). */
export function countReceiptsAwaited(reports: LinkReport[]): Map<Operator, number> {
  return new Map(
    operators.map((operator) => [
      operator,
      receiptsAwaited(mergeMinutes(reports.filter((report) => report.operator === operator).map((report) => report.minutes))),
    ]),
  );
}

/** Every carrier: its pause, the binds reported recently, their sums and the queue. */
export async function readCarrierOverview(now = new Date()): Promise<CarrierOverview[]> {
  const [pauses, queue, binds] = await Promise.all([listCarrierPauses(), readQueueStats(), readFreshBinds(now)]);
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
      windowSize: sum((bind) => (bind.active ? bind.windowSize : 0)),
      tps: capInUse(own),
      sentLastMinute: sum((bind) => bind.sentLastMinute),
      minutes,
      lastHour: {
        sent: hourly((stats) => stats.sent),
        errors: hourly((stats) => stats.errors),
        throttled: hourly((stats) => stats.throttled),
        delivered: hourly((stats) => stats.delivered),
        submitP50Ms: latencyQuantileMs(minutes, 0.5),
        submitP95Ms: latencyQuantileMs(minutes, 0.95),
        receiptP50Ms: latencyQuantileMs(minutes, 0.5, "receiptLatency"),
        receiptP95Ms: latencyQuantileMs(minutes, 0.95, "receiptLatency"),
        receiptsAwaited: receiptsAwaited(minutes),
      },
      queue: queue.get(operator)!,
    };
  });
}

/** A stored minute as MinuteStats says; minutes written before receipts were counted lack their fields. */
const minuteStats = z.object({
  minute: z.number(),
  sent: z.number(),
  errors: z.number(),
  throttled: z.number(),
  latency: z.array(z.number()),
  delivered: z.number().default(0),
  receiptLatency: z.array(z.number()).default([]),
  receipted: z.number().default(0),
}) satisfies z.ZodType<MinuteStats>;

/** The stored minutes of a bind, only those of the last hour; a malformed minute reads as none. */
function parseMinutes(value: string, now = Date.now()): MinuteStats[] {
  const from = Math.floor(now / 60_000) - 59;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((entry) => {
    const minute = minuteStats.safeParse(entry);
    return minute.success && minute.data.minute >= from ? [minute.data] : [];
  });
}

/** Per worker, the cap of the binds in use (binds used together share one; a standby standing by adds none), summed. */
function capInUse(binds: CarrierBind[]): number {
  const perOwner = new Map<string, number>();
  for (const bind of binds) if (bind.active) perOwner.set(bind.owner, Math.max(perOwner.get(bind.owner) ?? 0, bind.tps));
  return [...perOwner.values()].reduce((total, cap) => total + cap, 0);
}
