// 0008_sender_id_review on a database that already holds one name in several cases: no row is lost,
// the approved one (else the oldest) keeps the plain upper-cased key, and the unique index holds.
import { afterAll, describe, expect, it } from "vitest";
import { openSql, type Sql } from "@/lib/db/sql";
import { readMigrations, splitStatements } from "@/lib/db/migrate";
import { createEmptyDatabase, type TestDatabase } from "../helpers/test-database";

const opened: { sql: Sql; database: TestDatabase }[] = [];

afterAll(async () => {
  for (const { sql, database } of opened) {
    await sql.close();
    await database.drop();
  }
});

describe("0008_sender_id_review", () => {
  it("keys existing sender ids by their upper-cased name without losing one", async () => {
    const database = await createEmptyDatabase();
    const sql = openSql(database.url);
    opened.push({ sql, database });
    const migrations = readMigrations(sql.dialect);
    const index = migrations.findIndex((migration) => migration.name === "0008_sender_id_review");
    expect(index).toBeGreaterThan(0);
    for (const migration of migrations.slice(0, index)) for (const statement of splitStatements(migration.sql)) await sql.run(statement);

    await sql.run(
      `INSERT INTO "Account" ("id", "name", "currency", "balance", "createdAt", "updatedAt") VALUES ('a1', 'A', 'USD', 0, ?, ?), ('a2', 'B', 'USD', 0, ?, ?)`,
      ["2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z"],
    );
    const rows: [string, string, string, string, string][] = [
      ["s1", "a1", "acme", "pending", "2026-01-01T00:00:00.000Z"],
      ["s2", "a1", "ACME", "approved", "2026-01-02T00:00:00.000Z"],
      ["s3", "a1", "Acme", "pending", "2026-01-03T00:00:00.000Z"],
      ["s4", "a1", "Other", "pending", "2026-01-03T00:00:00.000Z"],
      ["s5", "a2", "acme", "pending", "2026-01-03T00:00:00.000Z"],
    ];
    for (const row of rows) {
      await sql.run(`INSERT INTO "SenderId" ("id", "accountId", "name", "status", "createdAt") VALUES (?, ?, ?, ?, ?)`, row);
    }
    for (const statement of splitStatements(migrations[index].sql)) await sql.run(statement);

    const keys = await sql.all<{ id: string; nameKey: string; useCase: string }>(
      `SELECT "id", "nameKey", "useCase" FROM "SenderId" ORDER BY "id"`,
    );
    expect(keys).toEqual([
      { id: "s1", nameKey: "ACME:s1", useCase: "" },
      { id: "s2", nameKey: "ACME", useCase: "" },
      { id: "s3", nameKey: "ACME:s3", useCase: "" },
      { id: "s4", nameKey: "OTHER", useCase: "" },
      { id: "s5", nameKey: "ACME", useCase: "" },
    ]);
    await expect(
      sql.run(`INSERT INTO "SenderId" ("id", "accountId", "name", "nameKey", "status") VALUES ('s6', 'a1', 'aCmE', 'ACME', 'pending')`),
    ).rejects.toThrow();
  });
});
