// The Carriers page's data as JSON (dates as ISO strings): what the page renders first and what
// GET /api/dashboard/carriers answers to its polling.
import type { Operator } from "@/lib/carriers/operators";
import { readCarrierOverview, type LinkStateName } from "@/lib/delivery/carrier-links";

export type CarrierBindRow = {
  owner: string;
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
  queueDepth: number;
  oldestQueuedAt: string | null;
  readAt: string;
};

export async function listCarrierRows(now = new Date()): Promise<CarrierRow[]> {
  const overview = await readCarrierOverview(now);
  return overview.map((carrier) => ({
    operator: carrier.operator,
    paused: carrier.paused ? { ...carrier.paused, pausedAt: carrier.paused.pausedAt.toISOString() } : null,
    binds: carrier.binds.map((bind) => ({
      owner: bind.owner,
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
    queueDepth: carrier.queue.depth,
    oldestQueuedAt: carrier.queue.oldestReceivedAt?.toISOString() ?? null,
    readAt: now.toISOString(),
  }));
}
