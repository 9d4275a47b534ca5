// The bulk scenario's physical limit: the rows a bulk send wrote, found by difference, inserted
// again into an empty database with the raw driver (better-sqlite3 or pg) in one transaction.
import Database from "better-sqlite3";
import pg from "pg";
import { configureSqlite, sqlitePath, type Row, type Sql } from "@/lib/db/sql";
import type { BenchDatabase } from "./database";

export type TableRows = { table: string; columns: string[]; rows: Row[] };

/** Parents first, so foreign keys hold while the copy is inserted. */
const INSERT_ORDER = ["Account", "BulkSend", "Message"];

export async function listTables(sql: Sql): Promise<string[]> {
  const rows =
    sql.dialect === "sqlite"
      ? await sql.all<{ name: string }>(
          `SELECT "name" FROM sqlite_master WHERE "type" = 'table' AND "name" NOT LIKE 'sqlite_%' AND "name" NOT LIKE '\\_%' ESCAPE '\\'`,
        )
      : await sql.all<{ name: string }>(
          `SELECT table_name AS "name" FROM information_schema.tables WHERE table_schema = 'public' AND table_name NOT LIKE '\\_%'`,
        );
  const rank = (table: string) => (INSERT_ORDER.includes(table) ? INSERT_ORDER.indexOf(table) : INSERT_ORDER.length);
  return rows.map((row) => row.name).sort((a, b) => rank(a) - rank(b));
}

const rowKey = (row: Row) => (row.id === undefined ? JSON.stringify(row) : String(row.id));

export type RowSnapshot = Map<string, Set<string>>;

export async function snapshotRows(sql: Sql, tables: string[]): Promise<RowSnapshot> {
  const snapshot: RowSnapshot = new Map();
  for (const table of tables) snapshot.set(table, new Set((await sql.all(`SELECT * FROM "${table}"`)).map(rowKey)));
  return snapshot;
}

/** Rows present now that were not in the snapshot (updated rows, e.g. the balance, are not new). */
export async function rowsSince(sql: Sql, snapshot: RowSnapshot): Promise<TableRows[]> {
  const result: TableRows[] = [];
  for (const [table, known] of snapshot) {
    const rows = (await sql.all(`SELECT * FROM "${table}"`)).filter((row) => !known.has(rowKey(row)));
    if (rows.length > 0) result.push({ table, columns: Object.keys(rows[0]), rows });
  }
  return result;
}

export async function selectRows(sql: Sql, table: string): Promise<TableRows> {
  const rows = await sql.all(`SELECT * FROM "${table}"`);
  return { table, columns: rows.length > 0 ? Object.keys(rows[0]) : [], rows };
}

const quoted = (columns: string[]) => columns.map((column) => `"${column}"`).join(", ");

/** Inserts the rows in one transaction with the bare driver; returns the seconds it took. */
export async function insertRowsRaw(database: BenchDatabase, tables: TableRows[]): Promise<number> {
  return database.engine === "sqlite" ? insertSqlite(database, tables) : insertPostgres(database, tables);
}

function insertSqlite(database: BenchDatabase, tables: TableRows[]): number {
  const db = new Database(sqlitePath(database.url));
  try {
    configureSqlite(db);
    const started = performance.now();
    db.transaction(() => {
      for (const { table, columns, rows } of tables) {
        const statement = db.prepare(`INSERT INTO "${table}" (${quoted(columns)}) VALUES (${columns.map(() => "?").join(", ")})`);
        for (const row of rows) statement.run(columns.map((column) => row[column]));
      }
    })();
    return (performance.now() - started) / 1000;
  } finally {
    db.close();
  }
}

/** One INSERT … SELECT FROM unnest(typed arrays) per table: one statement to parse, whatever the row count. */
async function insertPostgres(database: BenchDatabase, tables: TableRows[]): Promise<number> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const statements: { text: string; values: unknown[][] }[] = [];
    for (const { table, columns, rows } of tables) {
      const types = await client.query<{ column_name: string; udt_name: string }>(
        `SELECT column_name, udt_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
        [table],
      );
      const typeOf = new Map(types.rows.map((row) => [row.column_name, row.udt_name]));
      const arrays = columns.map((column, index) => `$${index + 1}::"${typeOf.get(column)}"[]`);
      statements.push({
        text: `INSERT INTO "${table}" (${quoted(columns)}) SELECT * FROM unnest(${arrays.join(", ")})`,
        values: columns.map((column) => rows.map((row) => row[column])),
      });
    }
    const started = performance.now();
    await client.query("BEGIN");
    for (const statement of statements) await client.query(statement.text, statement.values);
    await client.query("COMMIT");
    return (performance.now() - started) / 1000;
  } finally {
    await client.end();
  }
}
