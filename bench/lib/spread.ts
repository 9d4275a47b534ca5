// Run-to-run spread of one figure: the median of the runs that produced it, and their range.
import type { BenchRun, ScenarioName, ScenarioResult } from "./results";

export type Spread = { median: number; min: number; max: number; runs: number };

/** Null when no run produced the figure (a failed or timed-out measurement is null in the JSON). */
export function spreadOf(values: readonly (number | null | undefined)[]): Spread | null {
  const sorted = values.filter((value): value is number => typeof value === "number" && Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], runs: sorted.length };
}

/** "1,234/s", or "1,234/s (1,100–1,300, 3 runs)" when several runs differ. */
export function formatSpread(spread: Spread | null, format: (value: number) => string): string {
  if (!spread) return "no figure";
  if (spread.runs === 1) return format(spread.median);
  return `${format(spread.median)} (${format(spread.min)}–${format(spread.max)}, ${spread.runs} runs)`;
}

/** Every result of each scenario, in run order, from one or several run files. */
export type ScenarioRuns = { [Name in ScenarioName]: Extract<ScenarioResult, { scenario: Name }>[] };

export function groupByScenario(runs: readonly BenchRun[]): ScenarioRuns {
  const grouped: ScenarioRuns = { single: [], bulk: [], dispatch: [], read: [], "delivery-control": [] };
  for (const run of runs) {
    for (const result of run.results) (grouped[result.scenario] as ScenarioResult[]).push(result);
  }
  return grouped;
}

/**
 * One spread per key over the runs, in the order keys first appear: describe names a row's key and
 * value (or skips the row), given the rows of its own run; each run contributes its rows.
 */
export function spreadsByKey<Row, Item extends { key: string; value: number | null }>(
  runs: readonly { data: { rows: Row[] } }[],
  describe: (row: Row, rowsOfRun: Row[]) => Item | undefined,
): (Omit<Item, "value"> & { spread: Spread | null })[] {
  const byKey = new Map<string, { first: Item; values: (number | null)[] }>();
  for (const run of runs) {
    for (const row of run.data.rows) {
      const item = describe(row, run.data.rows);
      if (!item) continue;
      const entry = byKey.get(item.key) ?? { first: item, values: [] };
      entry.values.push(item.value);
      byKey.set(item.key, entry);
    }
  }
  return [...byKey.values()].map(({ first: { value: _value, ...rest }, values }) => ({ ...rest, spread: spreadOf(values) }));
}
