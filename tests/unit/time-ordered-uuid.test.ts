import { describe, expect, it } from "vitest";
import { z } from "zod";
import { timeOrderedUuid } from "@/lib/model/ids";

describe("timeOrderedUuid", () => {
  it("makes valid, unique version-7 UUIDs in creation order, even thousands per millisecond", () => {
    const ids = Array.from({ length: 20_000 }, () => timeOrderedUuid());
    expect(ids.every((id) => z.uuid({ version: "v7" }).safeParse(id).success)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    const millis = parseInt(ids[0].replace("-", "").slice(0, 12), 16);
    expect(Math.abs(millis - Date.now())).toBeLessThan(5_000);
  });
});
