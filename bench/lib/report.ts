// Output of the benchmarks: progress lines on stderr, tables on stdout, each run as JSON and as a
// self-contained HTML report under bench/results/ (latest.json and latest.html are the newest run).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { renderHtmlReport } from "./html-report";
import { benchRunSchema, type BenchMachine, type BenchRun, type BenchTable } from "./results";

export type Table = BenchTable;

export const RESULTS_DIR = path.join(import.meta.dirname, "..", "results");

export function log(line: string): void {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
}

/** A progress line every few seconds while a timed run goes on. */
export function startProgress(label: string, totalSeconds: number, everySeconds = 5): { stop: () => void } {
  const started = Date.now();
  log(`${label}: running ${totalSeconds} s`);
  const timer = setInterval(() => {
    log(`${label}: ${Math.round((Date.now() - started) / 1000)}/${totalSeconds} s`);
  }, everySeconds * 1000);
  return { stop: () => clearInterval(timer) };
}

export function formatTable(table: Table): string {
  const cells = [table.columns, ...table.rows.map((row) => row.map(String))];
  const widths = table.columns.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? "").length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column])).join(" | ")} |`;
  const rule = `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`;
  const notes = (table.notes ?? []).map((note) => `  ${note}`);
  return [`\n### ${table.title}`, line(cells[0]), rule, ...cells.slice(1).map(line), ...notes].join("\n");
}

/** A size in MB for a note, rounded; "n/a" when it could not be read. */
export function formatMb(value: number | null): string {
  return value === null ? "n/a" : `${round(value)} MB`;
}

/** Rounds for display: 3 significant figures below 100, integers above. */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  return Math.abs(value) >= 100 ? Math.round(value) : Number(value.toPrecision(3));
}

export function describeMachine(): BenchMachine {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? "unknown",
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))),
  };
}

/** bench/results/<start time>-<scenarios>.json and .html, and the same as latest.json and latest.html. */
export function writeResults(startedAt: Date, name: string, run: BenchRun): { json: string; html: string } {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const base = path.join(RESULTS_DIR, `${startedAt.toISOString().replace(/[:.]/g, "-")}-${name}`);
  const json = `${JSON.stringify(run, null, 2)}\n`;
  const html = renderHtmlReport([run]);
  for (const [file, text] of [
    [`${base}.json`, json],
    [`${base}.html`, html],
    [path.join(RESULTS_DIR, "latest.json"), json],
    [path.join(RESULTS_DIR, "latest.html"), html],
  ]) {
    fs.writeFileSync(file, text);
  }
  return { json: `${base}.json`, html: `${base}.html` };
}

/** A run file, checked against the schema; the error names the file and what is wrong. */
export function readRun(file: string): BenchRun {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
  }
  const parsed = benchRunSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  throw new Error(`${file}: not a run of this benchmark (${issue.path.join(".") || "file"}: ${issue.message})`);
}
