import { describe, expect, it } from "vitest";
import { checkRecipients, extractCandidates } from "@/lib/dashboard/check-recipient-list";
import { priceSend } from "@/lib/dashboard/price-send";
import { can, permissions } from "@/lib/auth/permissions";
import { describeFields, exampleBody, typeLabel } from "@/lib/dashboard/describe-schema";

describe("bulk recipient list", () => {
  it("reads the first CSV column, skips a header, and lists invalid numbers and duplicates by line", async () => {
    const csv = 'phone,name\n"+263771000001",Ann\n0771000001,Ann again\n\n12345,Typo\n0712000002;x\n';
    const candidates = extractCandidates(csv, { csv: true });
    expect(candidates).toEqual([
      { line: 2, value: "+263771000001" },
      { line: 3, value: "0771000001" },
      { line: 5, value: "12345" },
      { line: 6, value: "0712000002" },
    ]);
    const progress: number[] = [];
    const checked = await checkRecipients(candidates, (done) => progress.push(done));
    expect(checked.valid).toEqual([
      { to: "+263771000001", operator: "econet" },
      { to: "+263712000002", operator: "netone" },
    ]);
    expect(checked.invalid).toEqual([{ line: 5, value: "12345", reason: expect.stringContaining("12345") }]);
    expect(checked.duplicates).toEqual([{ line: 3, value: "0771000001", to: "+263771000001", firstLine: 2 }]);
    expect(checked.perOperator).toEqual({ econet: 1, netone: 1, telecel: 0 });
    expect(progress).toEqual([4]);
  });

  it("sets the numbers on the opt-out list apart, by their first line, out of the send and its carrier counts", async () => {
    const list = new Set(["+263771000001"]);
    const asked: string[][] = [];
    const checked = await checkRecipients(
      extractCandidates("077 100 0001\n0712000002\n+263771000001\n", { csv: false }),
      () => undefined,
      async (numbers) => {
        asked.push(numbers);
        return numbers.filter((number) => list.has(number));
      },
    );
    expect(asked).toEqual([["+263771000001", "+263712000002"]]);
    expect(checked.valid).toEqual([{ to: "+263712000002", operator: "netone" }]);
    expect(checked.optedOut).toEqual([{ line: 1, value: "077 100 0001", to: "+263771000001" }]);
    expect(checked.perOperator).toEqual({ econet: 0, netone: 1, telecel: 0 });
  });

  it("splits pasted text on lines, commas and tabs", () => {
    expect(extractCandidates("0771000001, 0771000002\n\t0771000003", { csv: false }).map((entry) => entry.value)).toEqual([
      "0771000001",
      "0771000002",
      "0771000003",
    ]);
  });

  it("prices segments per carrier", () => {
    const price = priceSend(2, { econet: "350", netone: "300", telecel: "320" }, { econet: 3, netone: 1, telecel: 0 });
    expect(price).toEqual({ perOperator: { econet: 2100n, netone: 600n, telecel: 0n }, total: 2700n });
  });
});

describe("roles", () => {
  it("keeps members, balance credits and key material away from the roles that may not have them", () => {
    expect(can("developer", "members.manage")).toBe(false);
    expect(can("developer", "balance.credit")).toBe(false);
    expect(can("owner", "balance.credit")).toBe(false);
    expect(can("admin", "balance.credit")).toBe(true);
    expect(can("support", "keys.manage")).toBe(false);
    expect(can("support", "messages.send")).toBe(false);
    expect(can("support", "platform.lookup")).toBe(true);
    for (const roles of Object.values(permissions)) expect(roles.length).toBeGreaterThan(0);
  });
});

describe("OpenAPI schema rows", () => {
  it("flattens nested fields, names referenced components and marks nullable ones", () => {
    const schema = {
      type: "object",
      required: ["to"],
      properties: {
        to: { type: "string", example: "+263771234567" },
        hook: { anyOf: [{ type: "string", description: "Callback" }, { type: "null" }] },
        error: {
          type: "object",
          properties: { code: { type: "string" }, items: { type: "array", items: { $ref: "#/components/schemas/FieldError" } } },
        },
      },
    };
    const rows = describeFields(schema);
    expect(rows.map((row) => row.name)).toEqual(["to", "hook", "error", "error.code", "error.items"]);
    expect(rows[1]).toMatchObject({ type: { text: "string or null" }, description: "Callback", required: false });
    expect(rows[4].type).toEqual({ text: "array of FieldError", ref: "FieldError" });
    expect(typeLabel({ const: "success" }).text).toBe('"success"');
    expect(exampleBody(schema)).toEqual({ to: "+263771234567" });
  });
});
