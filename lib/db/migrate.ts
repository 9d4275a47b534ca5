// Applies the committed migrations of the database's dialect (prisma/migrations/<dialect>/*), each
// in its own transaction, recorded in _tumira_migrations. On PostgreSQL an advisory lock lets
// several processes start at once. Needs no network and no Prisma engine.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Dialect, Sql } from "./sql";

const MIGRATIONS_TABLE = "_tumira_migrations";
const POSTGRES_LOCK_ID = 7_247_722;

export type Migration = { name: string; sql: string; checksum: string };
export type MigrationStatus = { applied: string[]; pending: string[]; current: boolean };

export function migrationsDir(dialect: Dialect): string {
  return path.join(process.cwd(), "prisma", "migrations", dialect);
}

export function readMigrations(dialect: Dialect): Migration[] {
  const dir = migrationsDir(dialect);
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
    });
}

async function ensureMigrationsTable(sql: Sql): Promise<void> {
  await sql.exec(
    `CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" ("name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "appliedAt" TEXT NOT NULL)`,
  );
}

async function appliedMigrations(sql: Sql): Promise<Map<string, string>> {
  const rows = await sql.all<{ name: string; checksum: string }>(`SELECT "name", "checksum" FROM "${MIGRATIONS_TABLE}"`);
  return new Map(rows.map((row) => [row.name, row.checksum]));
}

export async function getMigrationStatus(sql: Sql): Promise<MigrationStatus> {
  const table = await sql.get(
    sql.dialect === "sqlite"
      ? `SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`
      : `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?`,
    [MIGRATIONS_TABLE],
  );
  const applied = table ? await appliedMigrations(sql) : new Map<string, string>();
  const pending = readMigrations(sql.dialect)
    .filter((migration) => !applied.has(migration.name))
    .map((migration) => migration.name);
  return { applied: [...applied.keys()].sort(), pending, current: pending.length === 0 };
}

/** Applies every pending migration; returns the names applied. */
export async function migrate(sql: Sql): Promise<string[]> {
  if (sql.dialect === "postgres") {
    return sql.transaction(async (tx) => {
      // A transaction-scoped lock serialises concurrent starts; the migrations run inside it.
      await tx.get(`SELECT pg_advisory_xact_lock(${POSTGRES_LOCK_ID})`);
      await tx.run(
        `CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" ("name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "appliedAt" TEXT NOT NULL)`,
      );
      const applied = new Map(
        (await tx.all<{ name: string; checksum: string }>(`SELECT "name", "checksum" FROM "${MIGRATIONS_TABLE}"`)).map(
          (row) => [row.name, row.checksum],
        ),
      );
      const done: string[] = [];
      for (const migration of readMigrations("postgres")) {
        if (checkApplied(applied, migration)) continue;
        for (const statement of splitStatements(migration.sql)) await tx.run(statement);
        await tx.run(`INSERT INTO "${MIGRATIONS_TABLE}" ("name", "checksum", "appliedAt") VALUES (?, ?, ?)`, [
          migration.name,
          migration.checksum,
          new Date().toISOString(),
        ]);
        done.push(migration.name);
      }
      return done;
    });
  }
  await ensureMigrationsTable(sql);
  const applied = await appliedMigrations(sql);
  const done: string[] = [];
  for (const migration of readMigrations("sqlite")) {
    if (checkApplied(applied, migration)) continue;
    await sql.transaction(async (tx) => {
      for (const statement of splitStatements(migration.sql)) await tx.run(statement);
      await tx.run(`INSERT INTO "${MIGRATIONS_TABLE}" ("name", "checksum", "appliedAt") VALUES (?, ?, ?)`, [
        migration.name,
        migration.checksum,
        new Date().toISOString(),
      ]);
    });
    done.push(migration.name);
  }
  return done;
}

function checkApplied(applied: Map<string, string>, migration: Migration): boolean {
  const checksum = applied.get(migration.name);
  if (checksum === undefined) return false;
  if (checksum !== migration.checksum) {
    throw new Error(`Migration ${migration.name} was changed after it was applied; add a new migration instead`);
  }
  return true;
}

/** Splits a generated migration script into statements (Prisma's scripts end each with ";" at line end). */
export function splitStatements(script: string): string[] {
  return script
    .split(/;\s*$/m)
    .map((statement) => statement.replace(/^\s*--.*$/gm, "").trim())
    .filter((statement) => statement.length > 0);
}
