import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildCharts } from "@/bench/lib/charts";
import { renderHtmlReport } from "@/bench/lib/html-report";
import { renderMarkdownFigures, writeDocsFigures } from "@/bench/lib/markdown-report";
import { readRun } from "@/bench/lib/report";
import type { BenchRun, ScenarioResult } from "@/bench/lib/results";
import { groupByScenario, spreadOf } from "@/bench/lib/spread";
import { renderChartSvg } from "@/bench/lib/svg-chart";
import { checkBenchTargets } from "@/bench/lib/targets";

const machine = { cpus: 2, cpuModel: "AMD EPYC", memoryGb: 24, os: "Linux", node: "v20.20.2" };
const settings = { engines: ["sqlite", "postgres"], durationSeconds: 5, connections: 50, dispatchCount: 10_000, processes: 1, runs: 1 };
const load = { p50Ms: 3, socketErrors: 0 };

function single(kannel: number, sqlite: number, p99Ms: number, errorResponses = 0): ScenarioResult {
  return {
    scenario: "single",
    tables: [{ title: "Single send <accept>", columns: ["competitor", "requests/s"], rows: [["Kannel", kannel]], notes: ["a note"] }],
    data: {
      rows: [
        {
          kind: "kannel",
          competitor: "Kannel",
          engine: "-",
          requestsPerSecond: kannel,
          p99Ms: 6,
          cpuMicrosPerRequest: 110,
          peakRssMb: 37,
          errorResponses: 0,
          ...load,
        },
        {
          kind: "ceiling",
          competitor: "Tumira ping",
          engine: "sqlite",
          requestsPerSecond: 28_000,
          p99Ms: 3,
          cpuMicrosPerRequest: 35,
          peakRssMb: null,
          errorResponses: 0,
          ...load,
        },
        {
          kind: "send",
          competitor: "Tumira send",
          engine: "sqlite",
          requestsPerSecond: sqlite,
          p99Ms,
          cpuMicrosPerRequest: 100,
          peakRssMb: 210,
          errorResponses,
          ...load,
        },
      ],
    },
  };
}

const bulk: ScenarioResult = {
  scenario: "bulk",
  tables: [],
  data: {
    rows: [
      { engine: "sqlite", recipients: 100_000, seconds: 1.5, rawSeconds: 1.2, ok: true },
      // A size that timed out: its raw insert was never run (NaN in the benchmark, null in the file).
      { engine: "postgres", recipients: 100_000, seconds: 240, rawSeconds: null, ok: false },
    ],
    peakRssMb: { sqlite: { peakRssMb: 205 }, postgres: { peakRssMb: 450 } },
  },
};

const run = (startedAt: string, results: ScenarioResult[]): BenchRun => ({ startedAt, machine, settings, results });

describe("benchmark report", () => {
  it("takes the median of the runs that have a figure and their range", () => {
    expect(spreadOf([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3, runs: 3 });
    expect(spreadOf([4, null, 1, Number.NaN])).toEqual({ median: 2.5, min: 1, max: 4, runs: 2 });
    expect(spreadOf([null, undefined])).toBeNull();
  });

  it("judges each target on the median of per-run ratios, errors on the worst run, and says when there is no figure", () => {
    // Kannel moves between runs: the ratio is taken within each run (1.1, 0.9, 1.2), not between medians.
    const runs = [
      run("2026-11-25T10:00:00.000Z", [single(10_000, 11_000, 20), bulk]),
      run("2026-11-25T11:00:00.000Z", [single(12_000, 10_800, 30, 3)]),
      run("2026-11-25T12:00:00.000Z", [single(9_000, 10_800, 22)]),
    ];
    const checks = checkBenchTargets(groupByScenario(runs));
    const find = (target: RegExp, engine: string) => checks.find((check) => target.test(check.target) && check.engine === engine);
    expect(find(/^Single send ≥/, "SQLite")).toEqual({
      target: "Single send ≥ 1 × Kannel",
      engine: "SQLite",
      measured: "1.10 × (0.90 ×–1.20 ×, 3 runs)",
      met: true,
    });
    expect(find(/^Single send p99/, "SQLite")).toMatchObject({ measured: "22.0 ms (20.0 ms–30.0 ms, 3 runs)", met: true });
    expect(find(/without errors/, "SQLite")).toMatchObject({ met: false });
    expect(find(/in ≤ 2 s/, "SQLite")).toMatchObject({ measured: "1.50 s", met: true });
    expect(find(/× the raw insert/, "PostgreSQL")).toMatchObject({ measured: "no figure", met: null });
    expect(find(/RSS.*bulk/, "PostgreSQL")).toMatchObject({ measured: "450 MB", met: false });
    expect(checks.some((check) => /^(Dispatch|Read)/.test(check.target))).toBe(false);
  });

  it("draws a bar per competitor with its spread and the target, escaping the labels", () => {
    const chart = buildCharts([
      run("2026-11-25T10:00:00.000Z", [single(10_000, 11_000, 20)]),
      run("2026-11-25T11:00:00.000Z", [single(12_000, 13_000, 30)]),
    ]).find((candidate) => candidate.id === "single-rate")!;
    expect(chart.bars.map((bar) => [bar.label, bar.spread?.median])).toEqual([
      ["Kannel sendsms", 11_000],
      ["GET /api/ping (ceiling) (SQLite)", 28_000],
      ["POST /api/v1/sms (SQLite)", 12_000],
    ]);
    expect(chart.reference).toEqual({ value: 11_000, label: "Kannel 11,000/s" });
    const svg = renderChartSvg({ ...chart, bars: [...chart.bars, { label: "<no figure> & co", color: "#000", spread: null }] });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.match(/<rect [^>]*rx="2"/g)).toHaveLength(3);
    expect(svg).toContain("12,000/s (11,000/s–13,000/s)");
    expect(svg).toContain("&lt;no figure&gt; &amp; co");
    expect(svg).toContain('stroke-dasharray="5 3"');
  });

  it("puts PostgreSQL's own CPU beside the gateway's, where a run counted it", () => {
    const withPostgres = (databaseCpuMicrosPerRequest: number | undefined): ScenarioResult => {
      const postgresSend = {
        kind: "send" as const,
        competitor: "Tumira send",
        engine: "postgres",
        requestsPerSecond: 9_000,
        p99Ms: 20,
        cpuMicrosPerRequest: 120,
        databaseCpuMicrosPerRequest,
        peakRssMb: 180,
        errorResponses: 0,
        ...load,
      };
      const result = single(10_000, 11_000, 20);
      if (result.scenario !== "single") throw new Error("not a single-send result");
      return { ...result, data: { rows: [...result.data.rows, postgresSend] } };
    };
    const dispatchRow = {
      competitor: "Tumira → SMPP → simulator",
      messages: 20_000,
      seconds: 2,
      messagesPerSecond: 10_000,
      peakRssMb: 150,
    };
    const dispatch: ScenarioResult = {
      scenario: "dispatch",
      tables: [],
      data: {
        rows: [
          {
            ...dispatchRow,
            gateway: "kannel",
            competitor: "Kannel",
            engine: "-",
            cpuMicrosecondsPerMessage: 50,
            databaseCpuMicrosecondsPerMessage: null,
          },
          { ...dispatchRow, gateway: "tumira", engine: "sqlite", cpuMicrosecondsPerMessage: 110, databaseCpuMicrosecondsPerMessage: null },
          { ...dispatchRow, gateway: "tumira", engine: "postgres", cpuMicrosecondsPerMessage: 90, databaseCpuMicrosecondsPerMessage: 170 },
        ],
      },
    };
    // The older run has no database figure: the bar's median comes from the runs that have one.
    const charts = buildCharts([
      run("2026-11-25T10:00:00.000Z", [withPostgres(undefined)]),
      run("2026-11-25T11:00:00.000Z", [withPostgres(80), dispatch]),
      run("2026-11-25T12:00:00.000Z", [withPostgres(100)]),
    ]);
    const barsOf = (id: string) => charts.find((chart) => chart.id === id)!.bars.map((bar) => [bar.label, bar.spread?.median]);
    expect(barsOf("single-cpu")).toEqual([
      ["Kannel sendsms", 110],
      ["GET /api/ping (ceiling) (SQLite)", 35],
      ["POST /api/v1/sms (SQLite)", 100],
      ["POST /api/v1/sms (PostgreSQL)", 120],
      ["POST /api/v1/sms (PostgreSQL): PostgreSQL server", 90],
    ]);
    expect(barsOf("dispatch-cpu")).toEqual([
      ["Kannel", 50],
      ["Tumira → SMPP → simulator (SQLite)", 110],
      ["Tumira → SMPP → simulator (PostgreSQL)", 90],
      ["Tumira → SMPP → simulator (PostgreSQL): PostgreSQL server", 170],
    ]);
  });

  it("writes an HTML report that loads nothing from elsewhere", () => {
    const html = renderHtmlReport([run("2026-11-25T10:00:00.000Z", [single(10_000, 11_000, 20), bulk])]);
    expect(html).toContain("<svg");
    expect(html).toContain("Single send &lt;accept&gt;");
    expect(html).not.toMatch(/<script|<link|<img|src=|url\(|https:\/\//);
  });

  it("replaces the figures section of the doc and its charts, and leaves the rest of the doc alone", () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "tumira-bench-docs-"));
    const doc = path.join(directory, "performance.md");
    const charts = path.join(directory, "performance");
    fs.mkdirSync(charts);
    fs.writeFileSync(path.join(charts, "read-rate.svg"), "<svg/>");
    const start = "<!-- figures: written by `npm run bench:report -- --docs` from here -->";
    const end = "<!-- figures: to here -->";
    fs.writeFileSync(doc, `# Performance\n\n## Method\n\n${start}\nold figures\n${end}\n\n## After\n`);

    writeDocsFigures([run("2026-11-25T10:00:00.000Z", [single(10_000, 11_000, 20)])], doc, charts);

    const text = fs.readFileSync(doc, "utf8");
    expect(text).toMatch(/^# Performance\n\n## Method\n\n<!-- figures/);
    expect(text).not.toContain("old figures");
    expect(text).toContain("| Single send ≥ 1 × Kannel | SQLite | 1.10 × | met |");
    expect(text).toContain("![Single send: requests answered per second](performance/single-rate.svg)");
    expect(text.endsWith(`${end}\n\n## After\n`)).toBe(true);
    expect(fs.readdirSync(charts).sort()).toEqual(["memory.svg", "single-cpu.svg", "single-p99.svg", "single-rate.svg"]);
    expect(renderMarkdownFigures([run("2026-11-25T10:00:00.000Z", [single(10_000, 11_000, 20)])], (chart) => chart.id).markdown).toContain(
      "Measured 2026-11-25 10:00 UTC",
    );
  });

  it("refuses a file that is not a run, naming it", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tumira-bench-run-")), "cut.json");
    fs.writeFileSync(file, "{ cut off");
    expect(() => readRun(file)).toThrow(file);
    fs.writeFileSync(
      file,
      JSON.stringify({
        startedAt: "2026-11-25T10:00:00.000Z",
        machine,
        settings,
        results: [{ scenario: "read", tables: [], data: { rows: [{ engine: "sqlite" }] } }],
      }),
    );
    expect(() => readRun(file)).toThrow(/not a run of this benchmark \(results\.0\.data\.rows\.0\.kind/);
  });
});
