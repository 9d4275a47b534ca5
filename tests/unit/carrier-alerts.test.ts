import { describe, expect, it } from "vitest";
import type { CarrierBind, CarrierOverview, QueueStats } from "@/lib/delivery/carrier-links";
import { BIND_DOWN_ALERT_MS, QUEUE_AGE_ALERT_MS, carrierAlertsOf } from "@/lib/dashboard/carrier-alerts";

const now = new Date("2026-11-26T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);

function bind(state: CarrierBind["state"], since: Date): CarrierBind {
  return {
    operator: "econet",
    bind: "smsc.example:2775",
    role: "primary",
    active: true,
    state,
    since,
    nextTryAt: null,
    host: "smsc.example:2775",
    windowUsed: 0,
    windowSize: 10,
    tps: 100,
    sentLastMinute: 0,
    minutes: [],
    owner: "worker-1",
    updatedAt: now,
  };
}

function queue(depth: number, oldestReceivedAt: Date | null): QueueStats {
  return {
    depth,
    oldestReceivedAt,
    byPriority: { normal: { depth, oldestReceivedAt }, high: { depth: 0, oldestReceivedAt: null } },
  };
}

function carrier(changes: Partial<CarrierOverview>): CarrierOverview {
  return {
    operator: "econet",
    paused: null,
    binds: [bind("bound", ago(3_600_000))],
    windowUsed: 0,
    windowSize: 10,
    tps: 100,
    sentLastMinute: 0,
    minutes: [],
    lastHour: {
      sent: 0,
      errors: 0,
      throttled: 0,
      delivered: 0,
      submitP50Ms: null,
      submitP95Ms: null,
      receiptP50Ms: null,
      receiptP95Ms: null,
      receiptsAwaited: 0,
    },
    queue: queue(0, null),
    ...changes,
  };
}

describe("carrier alerts", () => {
  it("says nothing while every carrier is bound and its queue is young", () => {
    expect(carrierAlertsOf([carrier({ queue: queue(5, ago(QUEUE_AGE_ALERT_MS - 1000)) })], now)).toEqual([]);
  });

  it("names a carrier whose binds have all been down past the threshold, not one that is reconnecting", () => {
    const down = carrier({ binds: [bind("down", ago(BIND_DOWN_ALERT_MS + 60_000)), bind("backing-off", ago(BIND_DOWN_ALERT_MS + 1000))] });
    expect(carrierAlertsOf([down], now)).toEqual([{ id: "econet-down", tone: "red", text: "Econet: no bind up for 2 min" }]);
    const reconnecting = carrier({ binds: [bind("binding", ago(BIND_DOWN_ALERT_MS - 1000))] });
    expect(carrierAlertsOf([reconnecting], now)).toEqual([]);
    const oneUp = carrier({ binds: [bind("down", ago(3_600_000)), bind("bound", ago(3_600_000))] });
    expect(carrierAlertsOf([oneUp], now)).toEqual([]);
  });

  it("names a carrier no dispatcher reports a bind to, unless it is paused", () => {
    expect(carrierAlertsOf([carrier({ operator: "telecel", binds: [] })], now)).toEqual([
      { id: "telecel-unreported", tone: "red", text: "Telecel: no dispatcher is reporting a bind" },
    ]);
    const paused = carrier({ paused: { reason: "SMSC upgrade", actor: "cli", pausedAt: ago(600_000) }, binds: [] });
    expect(carrierAlertsOf([paused], now).map((alert) => alert.id)).toEqual(["econet-paused"]);
  });

  it("names a paused carrier with its reason instead of calling its binds down", () => {
    const paused = carrier({
      operator: "netone",
      paused: { reason: "SMSC upgrade", actor: "cli", pausedAt: ago(600_000) },
      binds: [bind("paused", ago(600_000))],
    });
    expect(carrierAlertsOf([paused], now)).toEqual([{ id: "netone-paused", tone: "amber", text: "NetOne is paused: SMSC upgrade" }]);
  });

  it("names a queue whose first message in line has waited past the threshold", () => {
    const slow = carrier({ operator: "telecel", queue: queue(900, ago(12 * 60_000)) });
    expect(carrierAlertsOf([slow], now)).toEqual([
      { id: "telecel-queue", tone: "amber", text: "Telecel: the message first in line has waited 12 min" },
    ]);
  });
});
