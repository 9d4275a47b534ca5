import { describe, expect, it } from "vitest";
import { inList, valuesTable } from "@/lib/db/batch-lists";

describe("batch lists", () => {
  it("pads an IN list to a power of two with copies of its last value", () => {
    expect(inList(["a"])).toEqual({ text: "(?)", params: ["a"] });
    expect(inList(["a", "b", "c"])).toEqual({ text: "(?, ?, ?, ?)", params: ["a", "b", "c", "c"] });
    expect(inList(["a", "b", "c", "d"]).params).toEqual(["a", "b", "c", "d"]);
  });

  it("writes a VALUES table with bare placeholders on SQLite and typed ones on PostgreSQL", () => {
    const rows = [
      ["m1", "2026-01-01T00:00:00.000+00:00"],
      ["m2", null],
      ["m3", "2026-01-01T00:00:01.000+00:00"],
    ];
    const sqlite = valuesTable({ dialect: "sqlite" }, ["text", "timestamp"], rows);
    expect(sqlite.text).toBe("(VALUES (?, ?), (?, ?), (?, ?), (?, ?)) AS v");
    expect(sqlite.params).toEqual([...rows.flat(), ...rows[2]]);
    const postgres = valuesTable({ dialect: "postgres" }, ["text", "timestamp"], rows.slice(0, 1));
    expect(postgres.text).toBe("(VALUES (CAST(? AS TEXT), CAST(? AS TIMESTAMP(3)))) AS v");
  });

  it("refuses an empty batch and one past the limit", () => {
    expect(() => inList([])).toThrow(RangeError);
    expect(() =>
      valuesTable(
        { dialect: "sqlite" },
        ["text"],
        Array.from({ length: 4097 }, (_, index) => [String(index)]),
      ),
    ).toThrow(RangeError);
  });
});
