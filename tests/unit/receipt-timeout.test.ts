// The pure parts of the receipt-timeout rule: where the sweep stops in the time-ordered part ids,
// and what the timeline says.
import { describe, expect, it } from "vitest";
import { isAwaitingUpdate } from "@/lib/dashboard/message-state";
import { describeReceiptTimeout, partIdBound } from "@/lib/delivery/receipt-timeout";
import { timeOrderedUuid } from "@/lib/model/ids";

describe("receipt timeout", () => {
  it("puts every id made before the cutoff below its bound and every id made from it on above", async () => {
    const before = timeOrderedUuid();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const cutoff = new Date();
    const bound = partIdBound(cutoff);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const after = timeOrderedUuid();
    expect(before < bound).toBe(true);
    expect(after > bound).toBe(true);
    expect(bound).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}$/);
  });

  it("writes the bound as the id's 48-bit millisecond time, which an id of that millisecond sorts above", () => {
    expect(partIdBound(new Date(0))).toBe("00000000-0000");
    expect(partIdBound(new Date(0x0197_1234_5678))).toBe("01971234-5678");
    expect("01971234-5678-7000-8000-000000000000" > partIdBound(new Date(0x0197_1234_5678))).toBe(true);
    expect("01971234-5677-7fff-bfff-ffffffffffff" < partIdBound(new Date(0x0197_1234_5678))).toBe(true);
  });

  it("says the timeout in hours when it is whole hours, otherwise in seconds", () => {
    expect(describeReceiptTimeout(72 * 3_600_000)).toBe("no delivery receipt within 72 h; settled as sent");
    expect(describeReceiptTimeout(1500)).toBe("no delivery receipt within 2 s; settled as sent");
  });

  it("stops counting a settled message as awaiting its receipt in the dashboard", () => {
    const sent = { status: "success", deliveredAt: null, createdAt: new Date(Date.now() - 60_000).toISOString() };
    expect(isAwaitingUpdate(sent)).toBe(true);
    expect(isAwaitingUpdate({ ...sent, receiptTimedOut: true })).toBe(false);
    expect(isAwaitingUpdate({ ...sent, status: "enqueued", receiptTimedOut: true })).toBe(true);
  });
});
