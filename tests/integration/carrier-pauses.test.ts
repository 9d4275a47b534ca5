// A carrier's pause as the domain keeps it: one pause per carrier however many admins press at once,
// and the same bounds on its reason from the dashboard and the CLI.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { pauseCarrier, resumeCarrier } from "@/lib/carriers/carrier-pauses";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

describe("carrier pauses", () => {
  it("pauses a carrier once when several pauses arrive together; the first reason stands and is audited once", async () => {
    const results = await Promise.all(
      ["maintenance one", "maintenance two", "maintenance three", "maintenance four"].map((reason) =>
        pauseCarrier({ operator: "econet", reason, actor: "cli" }),
      ),
    );
    expect(results.filter((result) => result.changed)).toHaveLength(1);
    const stored = await db().carrierPause.findMany();
    expect(stored).toHaveLength(1);
    expect(results.every((result) => result.pause.reason === stored[0].reason)).toBe(true);
    expect(await db().auditEvent.count({ where: { action: "carrier.paused", targetId: "econet" } })).toBe(1);
    expect(await resumeCarrier({ operator: "econet", actor: "cli" })).toEqual({ changed: true });
  });

  it("refuses a reason shorter than three characters or longer than 500, naming the field, and pauses nothing", async () => {
    for (const reason of ["", "   ", "x", " ab ", "y".repeat(501)]) {
      await expect(pauseCarrier({ operator: "netone", reason, actor: "cli" })).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
        options: { fields: [expect.objectContaining({ field: "reason" })] },
      });
    }
    expect(await db().carrierPause.count({ where: { operator: "netone" } })).toBe(0);
    expect(await db().auditEvent.count({ where: { targetType: "carrier", targetId: "netone" } })).toBe(0);
    expect((await pauseCarrier({ operator: "netone", reason: " abc ", actor: "cli" })).pause.reason).toBe("abc");
  });
});
