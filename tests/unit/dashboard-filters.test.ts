import { describe, expect, it } from "vitest";
import { dayParam, dayRange, parseFilters } from "@/lib/dashboard/filters";
import { parseLedgerFilters } from "@/lib/dashboard/list-ledger";
import { parseAuditFilters } from "@/lib/dashboard/list-audit-events";

const fields = { from: dayParam, to: dayParam };
const labels = { from: "From", to: "To" };

describe("dashboard day filters", () => {
  it("keeps real days, leap days included", () => {
    const { filters, problems } = parseFilters(fields, labels, { from: "2028-02-29", to: "2026-12-31" });
    expect(problems).toEqual([]);
    expect(filters).toEqual({ from: "2028-02-29", to: "2026-12-31" });
  });

  it("refuses a To day before the From day of a range, naming To and keeping From", () => {
    const { filters, problems } = parseFilters(fields, labels, { from: "2026-11-30", to: "2026-11-01" }, { dayRange: ["from", "to"] });
    expect(filters).toEqual({ from: "2026-11-30" });
    expect(problems).toEqual([{ field: "to", description: "To: 2026-11-01 is before From (2026-11-30); choose a day on or after it" }]);
    expect(parseFilters(fields, labels, { from: "2026-11-30", to: "2026-11-30" }, { dayRange: ["from", "to"] }).problems).toEqual([]);
  });

  it("refuses a reversed range on the balance and audit pages too", () => {
    for (const parse of [parseLedgerFilters, parseAuditFilters]) {
      expect(parse({ from: "2026-11-30", to: "2026-11-01" }).problems).toEqual([
        { field: "to", description: "To: 2026-11-01 is before From (2026-11-30); choose a day on or after it" },
      ]);
    }
  });

  it("names a day that does not exist instead of rolling it into the next month", () => {
    const { filters, problems } = parseFilters(fields, labels, { from: "2026-02-30", to: "2027-02-29" });
    expect(filters).toEqual({});
    expect(problems).toEqual([
      { field: "from", description: "From: no such day" },
      { field: "to", description: "To: no such day" },
    ]);
  });

  it("names a day whose range the database cannot hold", () => {
    const { filters, problems } = parseFilters(fields, labels, { from: "0000-06-01", to: "9999-12-31" });
    expect(filters).toEqual({});
    expect(problems).toEqual([
      { field: "from", description: "From: use a day from 0001-01-01 to 9999-12-30" },
      { field: "to", description: "To: use a day from 0001-01-01 to 9999-12-30" },
    ]);
  });

  it("names a value that is not a day, and keeps the other filter", () => {
    const { filters, problems } = parseFilters(fields, labels, { from: "26-1-2", to: "2026-01-02" });
    expect(filters).toEqual({ to: "2026-01-02" });
    expect(problems).toEqual([{ field: "from", description: "From: use a day as YYYY-MM-DD" }]);
  });

  it("turns days into a half-open range ending at the midnight after the last day", () => {
    expect(dayRange("2026-02-28", "2026-02-28")).toEqual({
      gte: new Date("2026-02-28T00:00:00Z"),
      lt: new Date("2026-03-01T00:00:00Z"),
    });
  });
});
