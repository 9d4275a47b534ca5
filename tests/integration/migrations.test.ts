// Migrations apply from empty on this run's database, are idempotent, refuse an edited migration,
// produce exactly the schema prisma/schema.prisma describes (the drift check), and carry the data
// of a changed column over.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSql, toDbTime, type Sql } from "@/lib/db/sql";
import { parseRows } from "@/lib/db/stores/shared/rows";
import { getMigrationStatus, migrate, readMigrations, splitStatements } from "@/lib/db/migrate";
import { DIST_DIR } from "@/scripts/build-server";
import { derivePostgresSchema } from "@/scripts/prisma-schemas";
import { createEmptyDatabase, type TestDatabase } from "../helpers/test-database";

const opened: { sql: Sql; database: TestDatabase }[] = [];

async function emptyDatabase() {
  const database = await createEmptyDatabase();
  const sql = openSql(database.url);
  opened.push({ sql, database });
  return sql;
}

afterAll(async () => {
  for (const { sql, database } of opened) {
    await sql.close();
    await database.drop();
  }
});

type ColumnShape = { table: string; column: string; type: string; nullable: boolean };

/** Tables, columns (type, nullability) and indexes (name, uniqueness, columns), engine-neutral. */
async function describeSchema(sql: Sql): Promise<{ columns: ColumnShape[]; indexes: string[] }> {
  if (sql.dialect === "sqlite") {
    const tables = await sql.all<{ name: string }>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_tumira_migrations' ORDER BY name`,
    );
    const columns: ColumnShape[] = [];
    const indexes: string[] = [];
    for (const { name } of tables) {
      for (const column of await sql.all<{ name: string; type: string; notnull: number }>(`SELECT * FROM pragma_table_info('${name}')`)) {
        columns.push({ table: name, column: column.name, type: column.type, nullable: column.notnull === 0 });
      }
      for (const index of await sql.all<{ name: string; unique: number }>(`SELECT * FROM pragma_index_list('${name}')`)) {
        const cols = await sql.all<{ name: string }>(`SELECT name FROM pragma_index_info('${index.name}') ORDER BY seqno`);
        indexes.push(`${name}:${index.name}:${index.unique}:${cols.map((col) => col.name).join(",")}`);
      }
    }
    // ALTER TABLE ADD COLUMN appends, so a migrated table's column order can differ: compare by name.
    columns.sort((x, y) => x.table.localeCompare(y.table) || x.column.localeCompare(y.column));
    return { columns, indexes: indexes.sort() };
  }
  const columns = await sql.all<{ table: string; column: string; type: string; nullable: string }>(
    `SELECT table_name AS "table", column_name AS "column", data_type || COALESCE('(' || datetime_precision || ')', '') AS "type", is_nullable AS "nullable"
     FROM information_schema.columns WHERE table_schema = current_schema() AND table_name <> '_tumira_migrations' ORDER BY table_name, column_name`,
  );
  const indexes = await sql.all<{ definition: string }>(
    `SELECT indexdef AS "definition" FROM pg_indexes WHERE schemaname = current_schema() AND tablename <> '_tumira_migrations' ORDER BY indexname`,
  );
  return {
    columns: columns.map((column) => ({ ...column, nullable: column.nullable === "YES" })),
    indexes: indexes.map((index) => index.definition.replace(/ ON [a-z_]+\./, " ON ")).sort(),
  };
}

function schemaScriptFromEmpty(dialect: "sqlite" | "postgres"): string {
  const root = process.cwd();
  let schemaPath = path.join(root, "prisma", "schema.prisma");
  if (dialect === "postgres") {
    schemaPath = path.join(root, "prisma", "generated", "drift-check.postgres.prisma");
    fs.mkdirSync(path.dirname(schemaPath), { recursive: true });
    fs.writeFileSync(schemaPath, derivePostgresSchema(fs.readFileSync(path.join(root, "prisma", "schema.prisma"), "utf8")));
  }
  return execFileSync("npx", ["prisma", "migrate", "diff", "--from-empty", "--to-schema-datamodel", schemaPath, "--script"], {
    cwd: root,
    encoding: "utf8",
  });
}

describe("migrations", () => {
  it("apply from empty, then report the schema current and apply nothing more", async () => {
    const sql = await emptyDatabase();
    const before = await getMigrationStatus(sql);
    expect(before.current).toBe(false);
    expect(before.pending).toEqual(readMigrations(sql.dialect).map((migration) => migration.name));

    const applied = await migrate(sql);
    expect(applied.length).toBeGreaterThan(0);
    expect(await getMigrationStatus(sql)).toMatchObject({ current: true, pending: [] });
    expect(await migrate(sql)).toEqual([]);
    const accounts = await sql.all(`SELECT * FROM "Account"`);
    expect(accounts).toEqual([]);
  });

  it("apply once when two processes start on the same empty database at the same time", async () => {
    const sql = await emptyDatabase();
    const { database } = opened.at(-1)!;
    const runMigrate = () =>
      new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, [path.join(DIST_DIR, "cli.js"), "migrate"], {
          env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: database.dataDir, NODE_ENV: "test" },
        });
        let output = "";
        child.stdout.on("data", (chunk) => (output += chunk));
        child.stderr.on("data", (chunk) => (output += chunk));
        child.on("exit", (code) => resolve({ code, output }));
      });
    const results = await Promise.all([runMigrate(), runMigrate()]);
    for (const result of results) expect(result.code, result.output).toBe(0);
    const applied = results.flatMap((result) => JSON.parse(result.output).applied as string[]);
    expect(applied.sort()).toEqual(readMigrations(sql.dialect).map((migration) => migration.name));
    expect(await getMigrationStatus(sql)).toMatchObject({ current: true });
  });

  it("refuse to run when an applied migration was edited", async () => {
    const sql = await emptyDatabase();
    await migrate(sql);
    await sql.run(`UPDATE "_tumira_migrations" SET "checksum" = 'edited' WHERE "name" = ?`, [readMigrations(sql.dialect)[0].name]);
    await expect(migrate(sql)).rejects.toThrow(/was changed after it was applied/);
  });

  it("produce exactly the schema that prisma/schema.prisma describes (drift check)", async () => {
    const migrated = await emptyDatabase();
    await migrate(migrated);
    const fromSchema = await emptyDatabase();
    for (const statement of splitStatements(schemaScriptFromEmpty(fromSchema.dialect))) await fromSchema.run(statement);
    // What the schema cannot describe is written beside it, and the migrations must produce it too.
    const partialIndexes = fs.readFileSync(path.join(process.cwd(), "prisma", "partial-indexes.sql"), "utf8");
    for (const statement of splitStatements(partialIndexes)) await fromSchema.run(statement);

    const expected = await describeSchema(fromSchema);
    const actual = await describeSchema(migrated);
    expect(actual.columns.length).toBeGreaterThan(50);
    expect(actual, "schema.prisma changed without a migration: run npm run db:migration -- <name>").toEqual(expected);
  });

  it("keep each queued message's place when its turn becomes epoch milliseconds", async () => {
    const sql = await emptyDatabase();
    const migrations = readMigrations(sql.dialect);
    const turnInMilliseconds = migrations.findIndex((migration) => migration.name.endsWith("_queue_turn_in_milliseconds"));
    for (const migration of migrations.slice(0, turnInMilliseconds)) {
      for (const statement of splitStatements(migration.sql)) await sql.run(statement);
    }
    const at = "2026-11-27T14:25:08.005+00:00";
    await sql.run(`INSERT INTO "Account" ("id", "name", "currency", "balance", "updatedAt") VALUES ('account', 'A', 'USD', 0, ?)`, [at]);
    // A normal turn, a high priority one (years back) and a message that never had one.
    const turns = { normal: Date.UTC(2026, 10, 27, 14, 26, 0, 990), high: Date.UTC(2016, 10, 29, 14, 25, 8, 1), none: null };
    for (const [id, turn] of Object.entries(turns)) {
      await sql.run(
        `INSERT INTO "Message" ("id", "accountId", "to", "body", "senderId", "operator", "charge", "currency", "segments", "encoding",
           "status", "nextAttemptAt", "receivedAt", "updatedAt", "turnAt")
         VALUES (?, 'account', '+263771234567', 'Hi', 'ACME', 'econet', 300, 'USD', 1, 'GSM-7', 'enqueued', ?, ?, ?, ?)`,
        [id, at, at, at, turn === null ? null : toDbTime(new Date(turn))],
      );
    }

    for (const statement of splitStatements(migrations[turnInMilliseconds].sql)) await sql.run(statement);

    const rows = parseRows(await sql.all(`SELECT "id", "turn" FROM "Message" ORDER BY "id"`), { id: "text", turn: "bigint?" });
    expect(Object.fromEntries(rows.map((row) => [row.id, row.turn]))).toEqual({
      high: BigInt(turns.high),
      none: null,
      normal: BigInt(turns.normal),
    });
  });
});
