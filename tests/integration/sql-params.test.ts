// Named parameters (`:name`) on both engines: a name may appear more than once, quoted text and
// PostgreSQL's `::` casts are left alone, and on PostgreSQL a repeated name is bound once (a large
// array named twice in a statement travels once).
import { describe, expect, it } from "vitest";
import { sql } from "@/lib/db/client";
import { testDatabaseKind, useTestDatabase } from "../helpers/test-database";

useTestDatabase();

const REPEATED = `SELECT CAST(:a AS INTEGER) + CAST(:a AS INTEGER) + CAST(:b AS INTEGER) AS "total", ':a' AS "quoted"`;

describe("named parameters", () => {
  it("binds a repeated name to the same value and leaves quoted text alone", async () => {
    const row = await sql().get<{ total: number | string; quoted: string }>(REPEATED, { a: 2, b: 5 }, { prepared: true });
    expect(Number(row?.total)).toBe(9);
    expect(row?.quoted).toBe(":a");
  });

  it("names the missing value", async () => {
    await expect(sql().get(REPEATED, { a: 2 })).rejects.toThrow("no value for :b");
  });

  it.skipIf(testDatabaseKind() !== "postgres")("sends PostgreSQL each name once", async () => {
    const parameterCount = await sql().transaction(async (executor) => {
      await executor.get(REPEATED, { a: 2, b: 5 }, { prepared: true });
      const row = await executor.get<{ count: number }>(
        `SELECT cardinality("parameter_types") AS "count" FROM pg_prepared_statements WHERE "statement" LIKE '%CAST($1 AS INTEGER) + CAST($1 AS INTEGER)%'`,
      );
      return row?.count;
    });
    expect(parameterCount).toBe(2);
  });
});
