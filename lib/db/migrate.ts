// Applies the committed migrations of the database's dialect (prisma/migrations/<dialect>/*), each
// in its own transaction, recorded in _tumira_migrations. On PostgreSQL an advisory lock lets
// several processes start at once. Needs no network and no Prisma engine.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Dialect, Sql, SqlExecutor } from "./sql";

const MIGRATIONS_TABLE = "_tumira_migrations";
const POSTGRES_LOCK_ID = 7_247_722;

export type Migration = { name: string; sql: string; checksum: string };
export type MigrationStatus = { applied: string[]; pending: string[]; current: boolean };

function migrationsDir(dialect: Dialect): string {
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

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" ("name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "appliedAt" TEXT NOT NULL)`;

async function appliedMigrations(executor: SqlExecutor): Promise<Map<string, string>> {
  const rows = await executor.all<{ name: string; checksum: string }>(`SELECT "name", "checksum" FROM "${MIGRATIONS_TABLE}"`);
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

/** Runs one migration's statements and records it, inside the caller's transaction. */
async function applyMigration(tx: SqlExecutor, migration: Migration): Promise<void> {
  for (const statement of splitStatements(migration.sql)) await tx.run(statement);
  await tx.run(`INSERT INTO "${MIGRATIONS_TABLE}" ("name", "checksum", "appliedAt") VALUES (?, ?, ?)`, [
    migration.name,
    migration.checksum,
    new Date().toISOString(),
  ]);
}

/** Applies every pending migration, each in its own transaction; returns the names applied. */
export async function migrate(sql: Sql): Promise<string[]> {
  // PostgreSQL: a transaction-scoped lock serialises processes starting at once (even CREATE TABLE
  // IF NOT EXISTS races there); whoever waited re-reads what is applied. SQLite's writer transaction
  // (BEGIN IMMEDIATE) already serialises.
  const lock = async (tx: SqlExecutor) => {
    if (tx.dialect === "postgres") await tx.get(`SELECT pg_advisory_xact_lock(${POSTGRES_LOCK_ID})`);
  };
  await sql.transaction(async (tx) => {
    await lock(tx);
    await tx.run(CREATE_MIGRATIONS_TABLE);
  });
  const done: string[] = [];
  for (const migration of readMigrations(sql.dialect)) {
    const applied = await sql.transaction(async (tx) => {
      await lock(tx);
      if (checkApplied(await appliedMigrations(tx), migration)) return false;
      await applyMigration(tx, migration);
      return true;
    });
    if (applied) done.push(migration.name);
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
