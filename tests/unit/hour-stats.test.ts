import { describe, expect, it } from "vitest";
import { timeOrderedUuid } from "@/lib/model/ids";
import {
  acceptedAtOfId,
  HourStats,
  latencyQuantileMs,
  mergeMinutes,
  MinuteCounter,
  ReceiptHours,
  receiptsAwaited,
} from "@/lib/delivery/hour-stats";

const MINUTE = 60_000;
const t0 = 1_000 * MINUTE;

describe("hour stats", () => {
  it("counts per minute, keeps the last hour only, and buckets the latency", () => {
    const hour = new HourStats();
    hour.sent(80, t0);
    hour.sent(700, t0 + 1_000);
    hour.refused(t0 + 2_000);
    hour.throttled(3, t0 + MINUTE);
    const earlier = hour.minutes(t0 + MINUTE);
    expect(earlier.map((stats) => [stats.minute, stats.sent, stats.errors, stats.throttled])).toEqual([
      [1000, 2, 1, 0],
      [1001, 0, 0, 3],
    ]);
    expect(latencyQuantileMs(earlier, 0.5)).toBe(100);
    expect(latencyQuantileMs(earlier, 0.95)).toBe(1_000);
    expect(latencyQuantileMs([], 0.5)).toBeNull();
    hour.delivered(4_000, t0 + 3_000);
    hour.delivered(null, t0 + 4_000);
    const withReceipts = hour.minutes(t0 + MINUTE);
    expect(withReceipts[0].delivered).toBe(2);
    expect(latencyQuantileMs(withReceipts, 0.5, "receiptLatency")).toBe(5_000);

    // An hour later, only the new minute is left.
    hour.sent(null, t0 + 70 * MINUTE);
    expect(hour.minutes(t0 + 70 * MINUTE).map((stats) => [stats.minute, stats.sent])).toEqual([[1070, 1]]);
  });

  it("adds several workers' minutes so that the quantiles are of the sum", () => {
    const a = new HourStats();
    const b = new HourStats();
    for (let i = 0; i < 9; i++) a.sent(50, t0);
    b.sent(20 * MINUTE, t0);
    b.sent(50, t0 + MINUTE);
    const merged = mergeMinutes([a.minutes(t0 + MINUTE), b.minutes(t0 + MINUTE)]);
    expect(merged.map((stats) => [stats.minute, stats.sent])).toEqual([
      [1000, 10],
      [1001, 1],
    ]);
    expect(latencyQuantileMs(merged, 0.5)).toBe(100);
    expect(latencyQuantileMs(merged, 0.99)).toBe(3_600_000);
  });

  it("awaits the receipts of the last hour's acceptances, whichever worker sent a message and whichever got its receipt", () => {
    const sender = new HourStats();
    const otherWorker = new ReceiptHours();
    const ownWorker = new ReceiptHours();
    for (let i = 0; i < 4; i++) sender.sent(50, t0 + i * 1_000);
    sender.sent(50, t0 + MINUTE);
    const now = t0 + 2 * MINUTE;
    const awaited = () =>
      receiptsAwaited(mergeMinutes([sender, otherWorker.of("econet"), ownWorker.of("econet")].map((hour) => hour.minutes(now))));
    expect(awaited()).toBe(5);
    // Receipts count in the minute of the acceptance, not of their arrival.
    otherWorker.of("econet").receipted(t0 + 2_000, now);
    ownWorker.of("econet").receipted(t0 + MINUTE, now);
    expect(
      otherWorker
        .of("econet")
        .minutes(now)
        .map((stats) => [stats.minute, stats.receipted]),
    ).toEqual([[1000, 1]]);
    expect(awaited()).toBe(3);
    expect(otherWorker.of("netone").minutes(now)).toEqual([]);
    // An acceptance out of the hour is not awaited, and its late receipt counts nowhere.
    const later = t0 + 60 * MINUTE;
    expect(receiptsAwaited(sender.minutes(later))).toBe(1);
    ownWorker.of("econet").receipted(t0, later);
    expect(
      ownWorker
        .of("econet")
        .minutes(later)
        .map((stats) => [stats.minute, stats.receipted]),
    ).toEqual([[1001, 1]]);
    expect(receiptsAwaited(mergeMinutes([sender.minutes(later), ownWorker.of("econet").minutes(later)]))).toBe(0);
    // Receipts of acceptances no longer reported (a restarted sender) never take it below 0.
    expect(receiptsAwaited(otherWorker.of("econet").minutes(now))).toBe(0);
  });

  it("reads the acceptance time from a message's UUIDv7 id, and nothing from another kind of id", () => {
    const before = Date.now();
    const at = acceptedAtOfId(timeOrderedUuid());
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect(acceptedAtOfId("3b241101-e2bb-4255-8caf-4136c566a962")).toBeNull();
    expect(acceptedAtOfId("not an id")).toBeNull();
  });

  it("counts events over the sliding last minute", () => {
    const counter = new MinuteCounter();
    const start = Date.now();
    counter.add(start);
    counter.add(start + 30_000);
    expect(counter.total(start + 30_000)).toBe(2);
    expect(counter.total(start + 61_000)).toBe(1);
    expect(counter.total(start + 10 * MINUTE)).toBe(0);
  });
});
