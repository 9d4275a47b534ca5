// When the message views poll: in-flight messages every tick, a scheduled send only from shortly
// before its time.
import { describe, expect, it } from "vitest";
import { isAwaitingUpdate, nextPollIn } from "@/lib/dashboard/message-state";

const NOW = Date.parse("2026-11-28T12:00:00.000Z");
const POLL_MS = 2_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const scheduled = (sendInMs: number) => ({ status: "created", deliveredAt: null, createdAt: at(-MINUTE), sendAt: at(sendInMs) });
const inFlight = (status: string) => ({ status, deliveredAt: null, createdAt: at(-MINUTE), sendAt: null });

describe("message polling", () => {
  it("does not poll a scheduled send while its time is more than a minute away, and looks again a minute before it", () => {
    expect(isAwaitingUpdate(scheduled(30 * MINUTE), NOW)).toBe(false);
    expect(nextPollIn([scheduled(30 * MINUTE)], POLL_MS, NOW)).toBe(29 * MINUTE);
  });

  it("waits at most an hour at a time for a send days ahead, as far as a schedule may go", () => {
    expect(isAwaitingUpdate(scheduled(2 * 86_400_000), NOW)).toBe(false);
    expect(nextPollIn([scheduled(2 * 86_400_000)], POLL_MS, NOW)).toBe(HOUR);
    expect(nextPollIn([scheduled(35 * 86_400_000)], POLL_MS, NOW)).toBe(HOUR);
  });

  it("polls a scheduled send from a minute before its time, and one whose time has passed", () => {
    expect(isAwaitingUpdate(scheduled(MINUTE - 1), NOW)).toBe(true);
    expect(nextPollIn([scheduled(MINUTE - 1)], POLL_MS, NOW)).toBe(POLL_MS);
    expect(nextPollIn([scheduled(-5 * MINUTE)], POLL_MS, NOW)).toBe(POLL_MS);
    // Just outside the minute: the wait is never shorter than a tick.
    expect(nextPollIn([scheduled(MINUTE + 500)], POLL_MS, NOW)).toBe(POLL_MS);
  });

  it("polls queued, sending and receipt-awaiting messages every tick, even beside a send scheduled for later", () => {
    for (const status of ["enqueued", "processing", "success"]) {
      expect(isAwaitingUpdate(inFlight(status), NOW)).toBe(true);
      expect(nextPollIn([inFlight(status)], POLL_MS, NOW)).toBe(POLL_MS);
    }
    expect(nextPollIn([scheduled(2 * 86_400_000), inFlight("enqueued")], POLL_MS, NOW)).toBe(POLL_MS);
  });

  it("stops for messages that will not change on their own", () => {
    const delivered = { ...inFlight("success"), deliveredAt: at(-1_000) };
    expect(nextPollIn([delivered, inFlight("failed")], POLL_MS, NOW)).toBe(false);
    expect(nextPollIn([], POLL_MS, NOW)).toBe(false);
  });
});
