import { describe, expect, it } from "vitest";
import { HIGH_LEAD_MS, takeTurns, TURN_SLOT_MS } from "@/lib/messages/queue-turns";
import { relativeValidityPeriod } from "@/lib/smpp/build-submit-parts";

const NOW = Date.parse("2030-01-01T00:00:00.000Z");
const normal = { now: NOW, priority: "normal" as const, sendAt: null, serving: null };

describe("queue turns", () => {
  it("puts an account's next send after its own backlog, and another account's first send at now", () => {
    expect(takeTurns("turns-a", "econet", false, 1000, normal)).toBe(NOW);
    expect(takeTurns("turns-a", "econet", false, 1, { ...normal, now: NOW + 50 })).toBe(NOW + 1000 * TURN_SLOT_MS);
    expect(takeTurns("turns-b", "econet", false, 3, { ...normal, now: NOW + 50 })).toBe(NOW + 50);
    expect(takeTurns("turns-b", "econet", false, 1, { ...normal, now: NOW + 60 })).toBe(NOW + 50 + 3 * TURN_SLOT_MS);
  });

  it("keeps carriers and test traffic apart, and starts again from now once a backlog's turns have passed", () => {
    takeTurns("turns-c", "econet", false, 100, normal);
    expect(takeTurns("turns-c", "netone", false, 1, normal)).toBe(NOW);
    expect(takeTurns("turns-c", "econet", true, 1, normal)).toBe(NOW);
    expect(takeTurns("turns-c", "econet", false, 1, { ...normal, now: NOW + 60_000 })).toBe(NOW + 60_000);
  });

  it("starts a newcomer at the turn being served when the carrier lags behind the clock, and at now when it is ahead", () => {
    const lagging = { ...normal, now: NOW + 60_000, serving: NOW + 52_000 };
    takeTurns("turns-f", "econet", false, 20_000, normal);
    expect(takeTurns("turns-g", "econet", false, 2, lagging)).toBe(NOW + 52_000);
    expect(takeTurns("turns-g", "econet", false, 1, { ...lagging, serving: NOW + 53_000 })).toBe(NOW + 53_000);
    expect(takeTurns("turns-f", "econet", false, 1, lagging)).toBe(NOW + 20_000 * TURN_SLOT_MS);
    expect(takeTurns("turns-h", "econet", false, 1, { ...normal, serving: NOW + 90_000 })).toBe(NOW);
  });

  it("puts high priority before any normal turn, and a scheduled send at its time without moving the account's turns", () => {
    const high = takeTurns("turns-d", "econet", false, 1, { ...normal, priority: "high" });
    expect(high).toBe(NOW - HIGH_LEAD_MS);
    const sendAt = new Date(NOW + 3_600_000);
    expect(takeTurns("turns-e", "econet", false, 5, { ...normal, sendAt })).toBe(sendAt.getTime());
    expect(takeTurns("turns-e", "econet", false, 1, normal)).toBe(NOW);
  });
});

describe("SMPP relative validity_period", () => {
  it.each([
    [60, "000000000100000R"],
    [3599, "000000005959000R"],
    [3600, "000000010000000R"],
    [86_400 + 3661, "000001010101000R"],
    [7 * 86_400, "000007000000000R"],
    [0.4, "000000000001000R"],
  ])("%s s is %s", (seconds, expected) => {
    expect(relativeValidityPeriod(seconds)).toBe(expected);
  });
});
