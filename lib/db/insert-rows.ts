// Multi-row INSERTs for the hot paths. Rows go in chunks whose sizes are powers of two, so a table
// has at most a dozen distinct statement texts (the SQLite layer caches one prepared statement per
// text) and every statement stays under both engines' parameter limits (SQLite 32766, PostgreSQL 65535).
// Values that every row shares (a bulk send's account, body, sender, times…) can be given once: each
// statement binds them once instead of once per row, which halved a 100,000-row Message insert on SQLite.
import type { Dialect, SqlExecutor } from "@/lib/db/sql";

const MAX_PARAMETERS = 30_000;
const MAX_ROWS = 1024;
const statements = new Map<string, string>();

/** Columns whose value is the same in every row, and those values (in `columns` order). */
export type SharedValues = { columns: readonly string[]; values: readonly unknown[] };

const NOTHING_SHARED: SharedValues = { columns: [], values: [] };

function largestPowerOfTwoAtMost(value: number): number {
  return 2 ** Math.floor(Math.log2(value));
}

function quoted(columns: readonly string[]): string {
  return columns.map((column) => `"${column}"`).join(", ");
}

/**
 * SQLite numbers `?` in text order and cannot repeat one, so the shared values are selected once
 * over a VALUES list of the rows; PostgreSQL repeats `$n` in every row, where the target columns
 * still type each value (a VALUES subquery would need a cast per column).
 */
function insertStatement(
  dialect: Dialect,
  table: string,
  columns: readonly string[],
  shared: readonly string[],
  rows: number,
  ignoreConflicts: boolean,
): string {
  const key = `${dialect}|${table}|${columns.join(",")}|${shared.join(",")}|${rows}|${ignoreConflicts}`;
  let text = statements.get(key);
  if (text) return text;
  const target = `INSERT INTO "${table}" (${quoted([...shared, ...columns])})`;
  if (shared.length === 0) {
    text = `${target} VALUES ${Array(rows)
      .fill(`(${columns.map(() => "?").join(", ")})`)
      .join(", ")}`;
  } else if (dialect === "sqlite") {
    const selected = [...shared.map(() => "?"), ...columns.map((_, index) => `column${index + 1}`)].join(", ");
    // WHERE true: without it SQLite would read an ON CONFLICT after the FROM as a join's ON.
    text = `${target} SELECT ${selected} FROM (VALUES ${Array(rows)
      .fill(`(${columns.map(() => "?").join(", ")})`)
      .join(", ")})${ignoreConflicts ? " WHERE true" : ""}`;
  } else {
    const sharedPlaceholders = shared.map((_, index) => `$${index + 1}`);
    const tuples = Array.from({ length: rows }, (_, row) => {
      const first = shared.length + row * columns.length + 1;
      return `(${[...sharedPlaceholders, ...columns.map((_, index) => `$${first + index}`)].join(", ")})`;
    });
    text = `${target} VALUES ${tuples.join(", ")}`;
  }
  if (ignoreConflicts) text += " ON CONFLICT DO NOTHING";
  statements.set(key, text);
  return text;
}

/**
 * Inserts rows (each an array of values in `columns` order), plus the `shared` columns with one value
 * for every row, with as few statements as the limits allow. With `ignoreConflicts`, a row that
 * would break a unique index is left out instead of failing the statement. Returns the rows inserted.
 */
export async function insertRows(
  tx: SqlExecutor,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  shared: SharedValues = NOTHING_SHARED,
  { ignoreConflicts = false } = {},
): Promise<number> {
  const rowLimit = Math.floor((MAX_PARAMETERS - shared.values.length) / columns.length);
  const maxRows = Math.min(MAX_ROWS, largestPowerOfTwoAtMost(rowLimit));
  let offset = 0;
  let inserted = 0;
  while (offset < rows.length) {
    const size = Math.min(maxRows, largestPowerOfTwoAtMost(rows.length - offset));
    const params: unknown[] = [...shared.values];
    for (let i = offset; i < offset + size; i++) for (const value of rows[i]) params.push(value);
    inserted += await tx.run(insertStatement(tx.dialect, table, columns, shared.columns, size, ignoreConflicts), params, {
      prepared: true,
    });
    offset += size;
  }
  return inserted;
}
