import { describe, expect, it } from "vitest";
import {
  allowedTransitions,
  assertTransition,
  canTransition,
  HELD_STATUSES,
  isFinalStatus,
  isMessageStatus,
  MessageStatus,
  messageStatuses,
  statusList,
} from "@/lib/model/message-status";

const ALLOWED: Array<[MessageStatus, MessageStatus]> = [
  ["created", "enqueued"],
  ["created", "failed"],
  ["enqueued", "processing"],
  ["enqueued", "failed"],
  ["processing", "enqueued"],
  ["processing", "success"],
  ["processing", "failed"],
  ["success", "failed"],
];

describe("message state machine", () => {
  it("names the statuses of the interface", () => {
    expect([...messageStatuses].sort()).toEqual(["created", "enqueued", "failed", "processing", "success"]);
    expect(isMessageStatus("success")).toBe(true);
    expect(isMessageStatus("delivered")).toBe(false);
    expect(isMessageStatus(1)).toBe(false);
  });

  it.each(ALLOWED)("allows %s -> %s", (from, to) => {
    expect(canTransition(from, to)).toBe(true);
    expect(allowedTransitions(from)).toContain(to);
    expect(() => assertTransition(from, to)).not.toThrow();
  });

  const refused = messageStatuses.flatMap((from) =>
    messageStatuses
      .filter((to) => !ALLOWED.some(([a, b]) => a === from && b === to))
      .map((to): [MessageStatus, MessageStatus] => [from, to]),
  );

  it("refuses every other move, staying put included", () => {
    expect(refused.length).toBe(messageStatuses.length ** 2 - ALLOWED.length);
    for (const [from, to] of refused) {
      expect(canTransition(from, to), `${from} -> ${to}`).toBe(false);
      expect(() => assertTransition(from, to)).toThrow(`cannot move from ${from} to ${to}`);
    }
  });

  it("has failed as its only final status", () => {
    expect(messageStatuses.filter(isFinalStatus)).toEqual([MessageStatus.failed]);
  });

  it("holds the charge only while a message may still be sent", () => {
    expect([...HELD_STATUSES].sort()).toEqual(["created", "enqueued", "processing"]);
    for (const status of HELD_STATUSES) expect(isFinalStatus(status)).toBe(false);
    expect(statusList(HELD_STATUSES)).toBe("('created', 'enqueued', 'processing')");
  });
});
