// Multi-row INSERTs for the hot paths. Rows go in chunks whose sizes are powers of two, so a table
// has at most a dozen distinct statement texts (the SQLite layer caches one prepared statement per
// text) and every statement stays under both engines' parameter limits (SQLite 32766, PostgreSQL 65535).
import type { SqlExecutor } from "@/lib/db/sql";

const MAX_PARAMETERS = 30_000;
const MAX_ROWS = 1024;
const statements = new Map<string, string>();

function largestPowerOfTwoAtMost(value: number): number {
  return 2 ** Math.floor(Math.log2(value));
}

function insertStatement(table: string, columns: readonly string[], rows: number): string {
  const key = `${table}|${columns.join(",")}|${rows}`;
  let text = statements.get(key);
  if (!text) {
    const row = `(${columns.map(() => "?").join(", ")})`;
    text = `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES ${Array(rows).fill(row).join(", ")}`;
    statements.set(key, text);
  }
  return text;
}

/** Inserts rows (each an array of values in `columns` order) with as few statements as the limits allow. */
export async function insertRows(tx: SqlExecutor, table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
  const maxRows = Math.min(MAX_ROWS, largestPowerOfTwoAtMost(Math.floor(MAX_PARAMETERS / columns.length)));
  let offset = 0;
  while (offset < rows.length) {
    const size = Math.min(maxRows, largestPowerOfTwoAtMost(rows.length - offset));
    const params: unknown[] = [];
    for (let i = offset; i < offset + size; i++) for (const value of rows[i]) params.push(value);
    await tx.run(insertStatement(table, columns, size), params);
    offset += size;
  }
}
