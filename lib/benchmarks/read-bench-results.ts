// The benchmark runs of this installation, as the Performance page shows them: the newest run of
// each scenario (a run of `--only single` leaves the other scenarios' figures where they were), and
// the single send's rate against Kannel over the runs. Files are read from BENCH_RESULTS_DIR, where
// `npm run bench` writes them; a file that does not parse is listed, not fatal.
import fs from "node:fs/promises";
import path from "node:path";
import { getEnv } from "@/lib/env";
import { benchRunSchema, type BenchRun, type ScenarioName, type ScenarioResult } from "./bench-run-schema";

/** The newest files read at most: a run writes about 10 KB, and the page reads them on every load. */
const MAX_RUNS_READ = 200;
/** bench/results/<ISO start time with - for : and .>-<scenarios>.json; not latest.json, a copy of the newest. */
const RUN_FILE = /^\d{4}-\d{2}-\d{2}T[\d-]+Z-[a-z+]+\.json$/;

export type RunInfo = Pick<BenchRun, "startedAt" | "machine" | "settings"> & { file: string };
export type LatestScenario<Name extends ScenarioName> = { run: RunInfo; result: Extract<ScenarioResult, { scenario: Name }> };
export type SingleSendHistoryPoint = { startedAt: string; engine: string; timesKannel: number; p99Ms: number | null };

export type BenchResults = {
  directory: string;
  /** Files read that hold a run. */
  runs: number;
  unreadable: { file: string; reason: string }[];
  latest: { [Name in ScenarioName]?: LatestScenario<Name> };
  /** Oldest first. */
  singleSendHistory: SingleSendHistoryPoint[];
};

export async function readBenchResults(directory = getEnv().BENCH_RESULTS_DIR): Promise<BenchResults> {
  const names = await listRunFiles(directory);
  const runs: { info: RunInfo; results: ScenarioResult[] }[] = [];
  const unreadable: BenchResults["unreadable"] = [];
  for (const file of names) {
    const parsed = await readRun(path.join(directory, file));
    if ("reason" in parsed) unreadable.push({ file, reason: parsed.reason });
    else runs.push({ info: { file, startedAt: parsed.startedAt, machine: parsed.machine, settings: parsed.settings }, results: parsed.results });
  }
  const latest: Partial<Record<ScenarioName, { run: RunInfo; result: ScenarioResult }>> = {};
  // Newest first: the first run of a scenario is its latest.
  for (const { info, results } of runs) for (const result of results) latest[result.scenario] ??= { run: info, result };
  // Each entry sits under its own result's scenario name, as BenchResults["latest"] says.
  return { directory, runs: runs.length, unreadable, latest: latest as BenchResults["latest"], singleSendHistory: singleSendHistory(runs) };
}

/** Run files, newest first (their names start with the run's start time). */
async function listRunFiles(directory: string): Promise<string[]> {
  const entries = await fs.readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  return entries.filter((name) => RUN_FILE.test(name)).sort().reverse().slice(0, MAX_RUNS_READ);
}

async function readRun(file: string): Promise<BenchRun | { reason: string }> {
  let json: unknown;
  try {
    json = JSON.parse(await fs.readFile(file, "utf8"));
  } catch (error) {
    return { reason: `not JSON: ${(error as Error).message}` };
  }
  const parsed = benchRunSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  return { reason: `not a run in this version's format (${issue.path.join(".") || "file"}: ${issue.message}); run npm run bench again` };
}

function singleSendHistory(runs: { info: RunInfo; results: ScenarioResult[] }[]): SingleSendHistoryPoint[] {
  const points: SingleSendHistoryPoint[] = [];
  for (const { info, results } of [...runs].reverse()) {
    for (const result of results) {
      if (result.scenario !== "single") continue;
      const kannel = result.data.rows.find((row) => row.kind === "kannel")?.requestsPerSecond;
      if (!kannel) continue;
      for (const row of result.data.rows) {
        if (row.kind !== "send" || row.requestsPerSecond === null) continue;
        points.push({ startedAt: info.startedAt, engine: row.engine, timesKannel: row.requestsPerSecond / kannel, p99Ms: row.p99Ms });
      }
    }
  }
  return points;
}
