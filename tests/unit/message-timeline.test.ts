// The timeline the dashboard shows: the happy path read from the message's columns and parts, the
// stored events (retries, failures, refunds) merged in by time.
import { describe, expect, it } from "vitest";
import { buildMessageTimeline } from "@/lib/messages/message-timeline";

const at = (second: number) => new Date(Date.UTC(2026, 10, 22, 8, 0, second));
const message = { operator: "econet", test: false, attempts: 1, receivedAt: at(0), dispatchedAt: null, deliveredAt: null };
const stored = (id: number, kind: string, detail: string, second: number) => ({ id, kind, detail, createdAt: at(second) });
const summary = (events: ReturnType<typeof buildMessageTimeline>) =>
  events.map((event) => [event.kind, event.detail, event.createdAt.getUTCSeconds()]);

describe("message timeline", () => {
  it("a queued message: accepted at its receivedAt", () => {
    expect(summary(buildMessageTimeline(message, [], []))).toEqual([["accepted", "", 0]]);
  });

  it("a delivered two-part message: dispatched, carrier accepted with every part's id, delivered", () => {
    const delivered = { ...message, dispatchedAt: at(1), deliveredAt: at(5) };
    const parts = [
      { carrierMessageId: "a1", createdAt: at(2) },
      { carrierMessageId: "a2", createdAt: at(2) },
    ];
    const timeline = buildMessageTimeline(delivered, parts, []);
    expect(summary(timeline)).toEqual([
      ["accepted", "", 0],
      ["dispatched", "attempt 1 to econet, 2 part(s)", 1],
      ["success", "ESME_ROK id:a1,a2", 2],
      ["delivered", "receipt DELIVRD", 5],
    ]);
    expect(new Set(timeline.map((event) => event.id)).size).toBe(4);
  });

  it("retries, then a refusal: the stored events in their places, no carrier acceptance", () => {
    const failed = { ...message, test: true, attempts: 2, dispatchedAt: at(4) };
    const events = [
      stored(7, "retry", "attempt 1 to econet: busy", 2),
      stored(8, "failed", "ESME_RREJECTMSG", 5),
      stored(9, "refunded", "released", 5),
    ];
    expect(summary(buildMessageTimeline(failed, [], events))).toEqual([
      ["accepted", "", 0],
      ["retry", "attempt 1 to econet: busy", 2],
      ["dispatched", "attempt 2 to econet (simulator: test message)", 4],
      ["failed", "ESME_RREJECTMSG", 5],
      ["refunded", "released", 5],
    ]);
  });

  it("a failed receipt after the carrier accepted: failure and refund follow the acceptance, stored ids kept apart", () => {
    const undelivered = { ...message, dispatchedAt: at(1) };
    const timeline = buildMessageTimeline(
      undelivered,
      [{ carrierMessageId: "b1", createdAt: at(1) }],
      [stored(3, "failed", "receipt UNDELIV", 9), stored(4, "refunded", "released", 9)],
    );
    expect(timeline.map((event) => [event.id, event.kind])).toEqual([
      ["accepted", "accepted"],
      ["dispatched", "dispatched"],
      ["success", "success"],
      ["event-3", "failed"],
      ["event-4", "refunded"],
    ]);
  });
});
