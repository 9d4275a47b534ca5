// The performance targets Tumira is built to, and how a set of runs reads against them. The tables'
// notes, the charts' reference lines and the report's verdicts all state them from here.
import type { BulkRow, DeliveryControlRow, ReadRow, SingleSendRow } from "./results";
import { formatSpread, spreadsByKey, type ScenarioRuns, type Spread } from "./spread";

export const benchTargets = {
  singleSendTimesKannel: 1,
  singleSendP99Ms: 25,
  bulkRecipients: 100_000,
  bulkSqliteSeconds: 2,
  bulkTimesRaw: 5,
  dispatchTimesKannel: 1,
  readRequestsPerSecond: 8_000,
  readP99Ms: 15,
  serverRssMb: 400,
  priorityP99Seconds: 1,
  fairnessP99Seconds: 5,
} as const;

export type TargetCheck = {
  target: string;
  engine: string;
  /** The median over the runs, with their range when there are several. */
  measured: string;
  /** Judged on the median; null when no run has a figure for it (a timed-out size, a failed run). */
  met: boolean | null;
};

export function verdict(check: TargetCheck): "met" | "missed" | "no figure" {
  return check.met === null ? "no figure" : check.met ? "met" : "missed";
}

export const times = (value: number) => `${value.toFixed(2)} ×`;
export const milliseconds = (value: number) => `${value.toFixed(1)} ms`;
export const seconds = (value: number) => `${value.toFixed(2)} s`;
export const megabytes = (value: number) => `${Math.round(value)} MB`;
export const microseconds = (value: number) => `${Math.round(value)} µs`;
export const perSecond = (value: number) => `${Math.round(value).toLocaleString("en")}/s`;

/** "sqlite" and "postgres" as people write them; Kannel's rows have engine "-". */
export function engineName(engine: string): string {
  return engine === "sqlite" ? "SQLite" : engine === "postgres" ? "PostgreSQL" : engine;
}

/** One line per target and engine over every run given; scenarios never run are absent. */
export function checkBenchTargets(scenarios: ScenarioRuns): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const check = (
    target: string,
    engine: string,
    spread: Spread | null,
    format: (value: number) => string,
    met: (value: number) => boolean,
  ) =>
    checks.push({
      target,
      engine: engineName(engine),
      measured: formatSpread(spread, format),
      met: spread === null ? null : met(spread.median),
    });

  // Ratios are taken within each run (Tumira against the Kannel of the same run), then spread.
  const kannelRate = (rows: SingleSendRow[]) => rows.find((row) => row.kind === "kannel")?.requestsPerSecond ?? null;
  const sends = (value: (row: SingleSendRow, rows: SingleSendRow[]) => number | null) =>
    spreadsByKey(scenarios.single, (row, rows) => (row.kind === "send" ? { key: row.engine, value: value(row, rows) } : undefined));
  for (const { key, spread } of sends((row, rows) => ratio(row.requestsPerSecond, kannelRate(rows)))) {
    check(
      `Single send ≥ ${benchTargets.singleSendTimesKannel} × Kannel`,
      key,
      spread,
      times,
      (value) => value >= benchTargets.singleSendTimesKannel,
    );
  }
  for (const { key, spread } of sends((row) => row.p99Ms)) {
    check(
      `Single send p99 ≤ ${benchTargets.singleSendP99Ms} ms`,
      key,
      spread,
      milliseconds,
      (value) => value <= benchTargets.singleSendP99Ms,
    );
  }
  for (const { key, spread } of sends((row) => row.errorResponses + row.socketErrors)) {
    // Every run must be clean, not the median one.
    checks.push({
      target: "Single send without errors",
      engine: engineName(key),
      measured: formatSpread(spread, String),
      met: spread && spread.max === 0,
    });
  }
  for (const { key, spread } of sends((row) => row.peakRssMb)) {
    check(
      `Server RSS ≤ ${benchTargets.serverRssMb} MB (single send)`,
      key,
      spread,
      megabytes,
      (value) => value <= benchTargets.serverRssMb,
    );
  }

  const largestBulks = (value: (row: BulkRow) => number | null) =>
    spreadsByKey(scenarios.bulk, (row) =>
      row.recipients === benchTargets.bulkRecipients ? { key: row.engine, value: row.ok ? value(row) : null } : undefined,
    );
  for (const { key, spread } of largestBulks((row) => row.seconds)) {
    if (key !== "sqlite") continue;
    check(
      `Bulk of 100,000 in ≤ ${benchTargets.bulkSqliteSeconds} s`,
      key,
      spread,
      seconds,
      (value) => value <= benchTargets.bulkSqliteSeconds,
    );
  }
  for (const { key, spread } of largestBulks((row) => ratio(row.seconds, row.rawSeconds))) {
    check(
      `Bulk of 100,000 ≤ ${benchTargets.bulkTimesRaw} × the raw insert`,
      key,
      spread,
      times,
      (value) => value <= benchTargets.bulkTimesRaw,
    );
  }
  const bulkMemory = spreadsByKey(
    scenarios.bulk.map((result) => ({
      data: { rows: Object.entries(result.data.peakRssMb).map(([engine, memory]) => ({ engine, ...memory })) },
    })),
    (row) => ({ key: row.engine, value: row.peakRssMb }),
  );
  for (const { key, spread } of bulkMemory) {
    check(`Server RSS ≤ ${benchTargets.serverRssMb} MB (bulk)`, key, spread, megabytes, (value) => value <= benchTargets.serverRssMb);
  }

  // Kannel's first row is its SMPP run to the same simulator: the like-for-like competitor.
  const dispatches = spreadsByKey(scenarios.dispatch, (row, rows) =>
    row.gateway === "tumira"
      ? {
          key: row.engine,
          value: ratio(row.messagesPerSecond, rows.find((other) => other.gateway === "kannel")?.messagesPerSecond ?? null),
        }
      : undefined,
  );
  for (const { key, spread } of dispatches) {
    check(
      `Dispatch ≥ ${benchTargets.dispatchTimesKannel} × Kannel over SMPP`,
      key,
      spread,
      times,
      (value) => value >= benchTargets.dispatchTimesKannel,
    );
  }
  const dispatchMemory = spreadsByKey(scenarios.dispatch, (row) =>
    row.gateway === "tumira" ? { key: row.engine, value: row.peakRssMb } : undefined,
  );
  for (const { key, spread } of dispatchMemory) {
    check(`Server RSS ≤ ${benchTargets.serverRssMb} MB (dispatch)`, key, spread, megabytes, (value) => value <= benchTargets.serverRssMb);
  }

  const reads = (value: (row: ReadRow) => number | null) =>
    spreadsByKey(scenarios.read, (row) => (row.kind === "read" ? { key: row.engine, value: value(row) } : undefined));
  for (const { key, spread } of reads((row) => row.requestsPerSecond)) {
    check(
      `Read ≥ ${benchTargets.readRequestsPerSecond.toLocaleString("en")} requests/s`,
      key,
      spread,
      perSecond,
      (value) => value >= benchTargets.readRequestsPerSecond,
    );
  }
  for (const { key, spread } of reads((row) => row.p99Ms)) {
    check(`Read p99 ≤ ${benchTargets.readP99Ms} ms`, key, spread, milliseconds, (value) => value <= benchTargets.readP99Ms);
  }
  const controls = (kind: DeliveryControlRow["kind"]) =>
    spreadsByKey(scenarios["delivery-control"], (row) =>
      row.kind === kind && row.gateway === "tumira" ? { key: row.engine, value: row.p99Seconds } : undefined,
    );
  for (const { key, spread } of controls("priority")) {
    check(
      `High priority past a backlog, p99 ≤ ${benchTargets.priorityP99Seconds} s`,
      key,
      spread,
      seconds,
      (value) => value <= benchTargets.priorityP99Seconds,
    );
  }
  for (const { key, spread } of controls("fairness")) {
    check(
      `Another account past a backlog, p99 ≤ ${benchTargets.fairnessP99Seconds} s`,
      key,
      spread,
      seconds,
      (value) => value <= benchTargets.fairnessP99Seconds,
    );
  }
  return checks;
}

function ratio(value: number | null, base: number | null): number | null {
  return value === null || !base ? null : value / base;
}
