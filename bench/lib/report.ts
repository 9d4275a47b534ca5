// Output of the benchmarks: progress lines on stderr, tables on stdout, JSON under BENCH_RESULTS_DIR (bench/results/).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BenchMachine, BenchRun, BenchTable } from "@/lib/benchmarks/bench-run-schema";
import { DEFAULT_BENCH_RESULTS_DIR } from "@/lib/env";

export type Table = BenchTable;

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

export function describeMachine(): BenchMachine & { loadAverage: number[] } {
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

/** <BENCH_RESULTS_DIR>/<start time>-<scenarios>.json, and the same as latest.json. */
export function writeResults(startedAt: Date, name: string, data: BenchRun): string {
  // As the server resolves it (lib/env.ts): `npm run bench` runs in the project directory.
  const directory = path.resolve(process.env.BENCH_RESULTS_DIR || DEFAULT_BENCH_RESULTS_DIR);
  fs.mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `${startedAt.toISOString().replace(/[:.]/g, "-")}-${name}.json`);
  const text = `${JSON.stringify(data, null, 2)}\n`;
  fs.writeFileSync(file, text);
  fs.writeFileSync(path.join(directory, "latest.json"), text);
  return file;
}
