// Placeholder lists for statements that take a whole batch at once: `IN (…)`, and `(VALUES …) AS v`
// for `UPDATE … FROM` with a value per row. Both are padded to a power of two with copies of their
// last item, so a statement has a handful of texts (the SQLite layer keeps one prepared statement
// per text); a copy matches what its original matches, and a row joined twice is updated once.
import type { Dialect } from "./sql";

export type BatchList = { text: string; params: unknown[] };
export type ValueType = "text" | "timestamp";

/** Far under both engines' parameter limits (SQLite 32766, PostgreSQL 65535) for a few columns. */
const MAX_ITEMS = 4096;
const CASTS: Record<ValueType, string> = { text: "CAST(? AS TEXT)", timestamp: "CAST(? AS TIMESTAMP(3))" };

function paddedLength(length: number): number {
  if (length === 0 || length > MAX_ITEMS) throw new RangeError(`a batch list takes 1 to ${MAX_ITEMS} items, not ${length}`);
  return 2 ** Math.ceil(Math.log2(length));
}

function padded<T>(items: readonly T[]): T[] {
  const length = paddedLength(items.length);
  return [...items, ...Array<T>(length - items.length).fill(items[items.length - 1])];
}

/** `(?, ?, …)` for `column IN …`. */
export function inList(values: readonly unknown[]): BatchList {
  const params = padded(values);
  return { text: `(${params.map(() => "?").join(", ")})`, params };
}

/**
 * `(VALUES (…), …) AS v`, one row per item, columns `v.column1`, `v.column2`, … on both engines.
 * PostgreSQL cannot infer a parameter's type inside VALUES, so there each one is cast to its column's:
 * the executor the statement runs on says which engine it is.
 */
export function valuesTable(
  { dialect }: { readonly dialect: Dialect },
  types: readonly ValueType[],
  rows: readonly (readonly unknown[])[],
): BatchList {
  const all = padded(rows);
  const row = `(${types.map((type) => (dialect === "postgres" ? CASTS[type] : "?")).join(", ")})`;
  return { text: `(VALUES ${Array(all.length).fill(row).join(", ")}) AS v`, params: all.flat() };
}
