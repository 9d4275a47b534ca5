// The Carriers page's data as JSON (dates as ISO strings): what the page renders first and what
// GET /api/dashboard/carriers answers to its polling.
import type { Operator } from "@/lib/carriers/operators";
import type { Priority } from "@/lib/model/sends";
import type { BindRole } from "@/lib/smpp/carrier-config";
import { readCarrierOverview, type CarrierHourTotals, type LinkStateName, type PriorityQueueStats } from "@/lib/delivery/carrier-links";
import type { MinuteStats } from "@/lib/delivery/hour-stats";

function perMinute(minutes: MinuteStats[], now: Date): number[] {
  const last = Math.floor(now.getTime() / 60_000);
  const sent = new Map(minutes.map((stats) => [stats.minute, stats.sent]));
  return Array.from({ length: 60 }, (_, index) => sent.get(last - 59 + index) ?? 0);
}

function finiteOrNull(value: number | null): number | null {
  return value !== null && Number.isFinite(value) ? value : null;
}

function priorityQueue(stats: PriorityQueueStats): { depth: number; oldestQueuedAt: string | null } {
  return { depth: stats.depth, oldestQueuedAt: stats.oldestReceivedAt?.toISOString() ?? null };
}

export type CarrierBindRow = {
  owner: string;
  bind: string;
  role: BindRole;
  /** Whether the carrier's messages go to this bind now. */
  active: boolean;
  state: LinkStateName;
  since: string;
  nextTryAt: string | null;
  host: string;
  windowUsed: number;
  windowSize: number;
  tps: number;
  sentLastMinute: number;
};

export type CarrierRow = {
  operator: Operator;
  paused: { reason: string; actor: string; pausedAt: string } | null;
  binds: CarrierBindRow[];
  windowUsed: number;
  windowSize: number;
  tps: number;
  sentLastMinute: number;
  /** Messages the carrier accepted per minute over the last hour, oldest first (60 values). */
  sentPerMinute: number[];
  lastHour: CarrierHourTotals;
  queueDepth: number;
  oldestQueuedAt: string | null;
  queueByPriority: Record<Priority, { depth: number; oldestQueuedAt: string | null }>;
  readAt: string;
};

export async function listCarrierRows(now = new Date()): Promise<CarrierRow[]> {
  const overview = await readCarrierOverview(now);
  return overview.map((carrier) => ({
    operator: carrier.operator,
    paused: carrier.paused ? { ...carrier.paused, pausedAt: carrier.paused.pausedAt.toISOString() } : null,
    binds: carrier.binds.map((bind) => ({
      owner: bind.owner,
      bind: bind.bind,
      role: bind.role,
      active: bind.active,
      state: bind.state,
      since: bind.since.toISOString(),
      nextTryAt: bind.nextTryAt?.toISOString() ?? null,
      host: bind.host,
      windowUsed: bind.windowUsed,
      windowSize: bind.windowSize,
      tps: bind.tps,
      sentLastMinute: bind.sentLastMinute,
    })),
    windowUsed: carrier.windowUsed,
    windowSize: carrier.windowSize,
    tps: carrier.tps,
    sentLastMinute: carrier.sentLastMinute,
    sentPerMinute: perMinute(carrier.minutes, now),
    // JSON has no Infinity: a quantile past the last bucket reads as null with the rest.
    lastHour: {
      ...carrier.lastHour,
      submitP50Ms: finiteOrNull(carrier.lastHour.submitP50Ms),
      submitP95Ms: finiteOrNull(carrier.lastHour.submitP95Ms),
      receiptP50Ms: finiteOrNull(carrier.lastHour.receiptP50Ms),
      receiptP95Ms: finiteOrNull(carrier.lastHour.receiptP95Ms),
    },
    queueDepth: carrier.queue.depth,
    oldestQueuedAt: carrier.queue.oldestReceivedAt?.toISOString() ?? null,
    queueByPriority: {
      normal: priorityQueue(carrier.queue.byPriority.normal),
      high: priorityQueue(carrier.queue.byPriority.high),
    },
    readAt: now.toISOString(),
  }));
}
