// The figures section of docs/performance.md: when and where the runs were made, the targets table,
// and each chart as an image beside what it measures. `npm run bench:report -- --docs` writes it.
import fs from "node:fs";
import path from "node:path";
import { buildCharts } from "./charts";
import { describeRuns } from "./describe-runs";
import type { BenchRun } from "./results";
import { groupByScenario } from "./spread";
import { renderChartSvg, type Chart } from "./svg-chart";
import { checkBenchTargets, verdict } from "./targets";

export const DOCS_FILE = path.join(import.meta.dirname, "..", "..", "docs", "performance.md");
export const DOCS_CHARTS_DIR = path.join(path.dirname(DOCS_FILE), "performance");
const FIGURES_START = "<!-- figures: written by `npm run bench:report -- --docs` from here -->";
const FIGURES_END = "<!-- figures: to here -->";

const cell = (text: string) => text.replace(/\|/g, "\\|");

export type MarkdownFigures = { markdown: string; charts: { chart: Chart; svg: string }[] };

/** chartPath: where the markdown links each chart's SVG (the caller writes the files there). */
export function renderMarkdownFigures(runs: readonly BenchRun[], chartPath: (chart: Chart) => string): MarkdownFigures {
  const { when, machine, load, settings, repetitions } = describeRuns(runs);
  const charts = buildCharts(runs).map((chart) => ({ chart, svg: `${renderChartSvg(chart)}\n` }));
  const checks = checkBenchTargets(groupByScenario(runs));
  const lines = [
    `Measured ${when} on ${machine} (load average over the last minute at each run's start: ${load}); ${settings}. ${repetitions === 1 ? "One run of each scenario." : `${repetitions} runs of each scenario: the median, and the lowest to the highest run.`}`,
    "",
    "| target | engine | measured | verdict |",
    "|---|---|---|---|",
    ...checks.map((check) => `| ${cell(check.target)} | ${cell(check.engine)} | ${cell(check.measured)} | ${verdict(check)} |`),
    ...charts.flatMap(({ chart }) => ["", `![${chart.title}](${chartPath(chart)})`, "", chart.description]),
  ];
  return { markdown: `${lines.join("\n")}\n`, charts };
}

/** Replaces the figures section of the performance doc, between its two markers, and its charts. */
export function writeDocsFigures(runs: BenchRun[], docsFile = DOCS_FILE, chartsDir = DOCS_CHARTS_DIR): void {
  const doc = fs.readFileSync(docsFile, "utf8");
  const start = doc.indexOf(FIGURES_START);
  const end = doc.indexOf(FIGURES_END);
  if (start < 0 || end < start) throw new Error(`${docsFile} has no figures section (the lines ${FIGURES_START} and ${FIGURES_END})`);
  const relativeDir = path.relative(path.dirname(docsFile), chartsDir);
  const { markdown, charts } = renderMarkdownFigures(runs, (chart) => `${relativeDir}/${chart.id}.svg`);
  fs.mkdirSync(chartsDir, { recursive: true });
  const written = new Set(charts.map(({ chart }) => `${chart.id}.svg`));
  // Charts of scenarios these runs do not have would show other runs' figures: they go.
  for (const file of fs.readdirSync(chartsDir)) if (file.endsWith(".svg") && !written.has(file)) fs.rmSync(path.join(chartsDir, file));
  for (const { chart, svg } of charts) fs.writeFileSync(path.join(chartsDir, `${chart.id}.svg`), svg);
  fs.writeFileSync(docsFile, `${doc.slice(0, start + FIGURES_START.length)}\n${markdown}${doc.slice(end)}`);
}
