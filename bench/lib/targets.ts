// The performance targets of issue 6, and how a benchmark run reads against them. The benchmark's
// table notes and the dashboard's Performance page both state them from here.
import type { BenchResults } from "./read-bench-results";

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
} as const;

export type TargetCheck = {
  target: string;
  engine: string;
  measured: string;
  /** null: the run has no figure for it (a timed-out size, a run that failed). */
  met: boolean | null;
};

const times = (value: number) => `${value.toFixed(2)} ×`;
const milliseconds = (value: number) => `${value.toFixed(1)} ms`;
const megabytes = (value: number) => `${Math.round(value)} MB`;
/** A rate as the page shows it, in the table and the charts. */
export const perSecond = (value: number) => `${Math.round(value).toLocaleString("en")}/s`;

/** "sqlite" and "postgres" as people write them; Kannel's rows have engine "-". */
export function engineName(engine: string): string {
  return engine === "sqlite" ? "SQLite" : engine === "postgres" ? "PostgreSQL" : engine;
}

/** One line per target and engine of the latest run of each scenario; scenarios never run are absent. */
export function checkBenchTargets(latest: BenchResults["latest"]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const check = (target: string, engine: string, value: number | null, format: (value: number) => string, met: (value: number) => boolean) =>
    checks.push({ target, engine, measured: value === null ? "no figure" : format(value), met: value === null ? null : met(value) });

  if (latest.single) {
    const { rows } = latest.single.result.data;
    const kannel = rows.find((row) => row.kind === "kannel")?.requestsPerSecond ?? null;
    for (const row of rows.filter((candidate) => candidate.kind === "send")) {
      const ratio = kannel && row.requestsPerSecond !== null ? row.requestsPerSecond / kannel : null;
      check(`Single send ≥ ${benchTargets.singleSendTimesKannel} × Kannel`, row.engine, ratio, times, (value) => value >= benchTargets.singleSendTimesKannel);
      check(`Single send p99 ≤ ${benchTargets.singleSendP99Ms} ms`, row.engine, row.p99Ms, milliseconds, (value) => value <= benchTargets.singleSendP99Ms);
      check("Single send without errors", row.engine, row.errorResponses + row.socketErrors, String, (value) => value === 0);
      check(`Server RSS ≤ ${benchTargets.serverRssMb} MB (single send)`, row.engine, row.peakRssMb, megabytes, (value) => value <= benchTargets.serverRssMb);
    }
  }
  if (latest.bulk) {
    const { rows, peakRssMb } = latest.bulk.result.data;
    for (const row of rows.filter((candidate) => candidate.recipients === benchTargets.bulkRecipients)) {
      if (row.engine === "sqlite") {
        check(`Bulk of 100,000 in ≤ ${benchTargets.bulkSqliteSeconds} s`, row.engine, row.ok ? row.seconds : null, (value) => `${value.toFixed(2)} s`, (value) => value <= benchTargets.bulkSqliteSeconds);
      }
      const ratio = row.ok && row.seconds !== null && row.rawSeconds ? row.seconds / row.rawSeconds : null;
      check(`Bulk of 100,000 ≤ ${benchTargets.bulkTimesRaw} × the raw insert`, row.engine, ratio, times, (value) => value <= benchTargets.bulkTimesRaw);
    }
    for (const [engine, memory] of Object.entries(peakRssMb)) {
      check(`Server RSS ≤ ${benchTargets.serverRssMb} MB (bulk)`, engine, memory.peakRssMb, megabytes, (value) => value <= benchTargets.serverRssMb);
    }
  }
  if (latest.dispatch) {
    const { rows } = latest.dispatch.result.data;
    // Kannel's first row is its SMPP run to the same simulator: the like-for-like competitor.
    const kannel = rows.find((row) => row.gateway === "kannel")?.messagesPerSecond ?? null;
    for (const row of rows.filter((candidate) => candidate.gateway === "tumira")) {
      const ratio = kannel && row.messagesPerSecond !== null ? row.messagesPerSecond / kannel : null;
      check(`Dispatch ≥ ${benchTargets.dispatchTimesKannel} × Kannel over SMPP`, row.engine, ratio, times, (value) => value >= benchTargets.dispatchTimesKannel);
    }
  }
  if (latest.read) {
    for (const row of latest.read.result.data.rows.filter((candidate) => candidate.kind === "read")) {
      check(`Read ≥ ${benchTargets.readRequestsPerSecond.toLocaleString("en")} requests/s`, row.engine, row.requestsPerSecond, perSecond, (value) => value >= benchTargets.readRequestsPerSecond);
      check(`Read p99 ≤ ${benchTargets.readP99Ms} ms`, row.engine, row.p99Ms, milliseconds, (value) => value <= benchTargets.readP99Ms);
    }
  }
  return checks;
}
