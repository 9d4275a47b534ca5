import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readBenchResults } from "@/lib/benchmarks/read-bench-results";
import { checkBenchTargets } from "@/lib/benchmarks/bench-targets";
import type { BenchRun, ScenarioResult } from "@/lib/benchmarks/bench-run-schema";

const machine = { cpus: 2, cpuModel: "AMD EPYC", memoryGb: 24, os: "Linux", node: "v20.20.2" };
const settings = { engines: ["sqlite", "postgres"], durationSeconds: 8, connections: 50, dispatchCount: 20_000, processes: 1 };
const load = { p50Ms: 3, errorResponses: 0, socketErrors: 0 };

function single(kannel: number, sqlite: number, p99Ms: number): ScenarioResult {
  return {
    scenario: "single",
    tables: [],
    data: {
      rows: [
        { kind: "kannel", competitor: "Kannel", engine: "-", requestsPerSecond: kannel, p99Ms: 6, cpuMicrosPerRequest: 110, peakRssMb: 37, ...load },
        { kind: "ceiling", competitor: "Tumira ping", engine: "sqlite", requestsPerSecond: 28_000, p99Ms: 3, cpuMicrosPerRequest: 35, peakRssMb: null, ...load },
        { kind: "send", competitor: "Tumira send", engine: "sqlite", requestsPerSecond: sqlite, p99Ms, cpuMicrosPerRequest: 100, peakRssMb: 210, ...load },
      ],
    },
  };
}

const bulk: ScenarioResult = {
  scenario: "bulk",
  tables: [],
  data: {
    rows: [
      { engine: "sqlite", recipients: 100_000, seconds: 1.1, rawSeconds: 1.8, ok: true },
      // A size that timed out: its raw insert was never run (NaN, written as null).
      { engine: "postgres", recipients: 100_000, seconds: 240, rawSeconds: null, ok: false },
    ],
    peakRssMb: { sqlite: { peakRssMb: 205 }, postgres: { peakRssMb: 450 } },
  },
};

function writeRun(directory: string, startedAt: string, results: ScenarioResult[]): void {
  const run: BenchRun & { settings: { postgresAdminUrl: string } } = { startedAt, machine, settings: { ...settings, postgresAdminUrl: "postgresql://postgres@127.0.0.1/postgres" }, results };
  const name = `${startedAt.replace(/[:.]/g, "-")}-${results.map((result) => result.scenario).join("+")}.json`;
  fs.writeFileSync(path.join(directory, name), JSON.stringify(run));
}

describe("benchmark results", () => {
  it("shows each scenario's newest run, lists files it cannot read, and follows the single send run by run", async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "tumira-bench-results-"));
    writeRun(directory, "2026-11-24T10:00:00.000Z", [single(14_000, 9_800, 20), bulk]);
    writeRun(directory, "2026-11-25T10:00:00.000Z", [single(12_000, 13_200, 30)]);
    fs.writeFileSync(path.join(directory, "2026-11-25T11-00-00-000Z-single.json"), "{ cut off");
    // A run of an older benchmark: its rows do not say which is Kannel's.
    fs.writeFileSync(path.join(directory, "2026-11-23T10-00-00-000Z-read.json"), JSON.stringify({ startedAt: "2026-11-23T10:00:00.000Z", machine, settings, results: [{ scenario: "read", tables: [], data: { rows: [{ engine: "sqlite" }] } }] }));
    fs.writeFileSync(path.join(directory, "latest.json"), "not read: a copy of the newest run");

    const results = await readBenchResults(directory);

    expect(results.runs).toBe(2);
    expect(results.latest.single?.run.startedAt).toBe("2026-11-25T10:00:00.000Z");
    expect(results.latest.bulk?.run.startedAt).toBe("2026-11-24T10:00:00.000Z");
    expect(results.latest.read).toBeUndefined();
    expect(results.unreadable.map((entry) => entry.file).sort()).toEqual(["2026-11-23T10-00-00-000Z-read.json", "2026-11-25T11-00-00-000Z-single.json"]);
    expect(results.unreadable.find((entry) => entry.file.endsWith("read.json"))?.reason).toMatch(/run npm run bench again/);
    expect(results.singleSendHistory).toEqual([
      { startedAt: "2026-11-24T10:00:00.000Z", engine: "sqlite", timesKannel: 0.7, p99Ms: 20 },
      { startedAt: "2026-11-25T10:00:00.000Z", engine: "sqlite", timesKannel: 1.1, p99Ms: 30 },
    ]);
    // The admin URL the benchmark ran against is not part of what is read.
    expect(JSON.stringify(results)).not.toContain("postgresql://");

    const checks = checkBenchTargets(results.latest);
    const verdict = (target: RegExp, engine: string) => checks.find((check) => target.test(check.target) && check.engine === engine);
    expect(verdict(/^Single send ≥/, "sqlite")).toMatchObject({ measured: "1.10 ×", met: true });
    expect(verdict(/^Single send p99/, "sqlite")).toMatchObject({ measured: "30.0 ms", met: false });
    expect(verdict(/in ≤ 2 s/, "sqlite")).toMatchObject({ measured: "1.10 s", met: true });
    expect(verdict(/× the raw insert/, "sqlite")).toMatchObject({ met: true });
    expect(verdict(/× the raw insert/, "postgres")).toMatchObject({ measured: "no figure", met: null });
    expect(verdict(/RSS.*bulk/, "postgres")).toMatchObject({ measured: "450 MB", met: false });
    expect(checks.some((check) => check.target.startsWith("Dispatch") || check.target.startsWith("Read"))).toBe(false);
  });

  it("has nothing to show when the benchmark never ran here", async () => {
    const results = await readBenchResults(path.join(os.tmpdir(), "tumira-no-such-results-directory"));
    expect(results).toMatchObject({ runs: 0, unreadable: [], latest: {}, singleSendHistory: [] });
  });
});
