// The report of one or several runs as one HTML file with everything inline (styles, SVG charts):
// it opens from disk, offline, and can be mailed around.
import { buildCharts } from "./charts";
import { describeRuns } from "./describe-runs";
import type { BenchRun, BenchTable } from "./results";
import { groupByScenario } from "./spread";
import { escapeXml as escape, renderChartSvg } from "./svg-chart";
import { checkBenchTargets, verdict, type TargetCheck } from "./targets";

const STYLE = `
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #0f172a; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; } h2 { font-size: 1.2rem; margin-top: 2.2rem; } h3 { font-size: 1rem; }
.meta { color: #475569; font-size: 0.9rem; } .meta dt { font-weight: 600; float: left; width: 7rem; } .meta dd { margin-left: 7.5rem; }
table { border-collapse: collapse; font-size: 0.85rem; margin: 0.6rem 0; } th, td { border-bottom: 1px solid #e2e8f0; padding: 0.3rem 0.6rem; text-align: left; }
th { background: #f8fafc; } td.met { color: #15803d; font-weight: 600; } td.missed { color: #b91c1c; font-weight: 600; } td.none { color: #64748b; }
figure { margin: 1rem 0; } figcaption { color: #475569; font-size: 0.9rem; max-width: 47rem; } svg { max-width: 100%; height: auto; }
.notes { color: #475569; font-size: 0.8rem; margin: 0 0 1rem; padding-left: 1.2rem; } details { margin: 0.5rem 0; } summary { cursor: pointer; }
`;

function targetsTable(checks: TargetCheck[]): string {
  if (checks.length === 0) return "<p>No target applies to the scenarios run (the bulk target needs a size of 100,000).</p>";
  const rows = checks.map((check) => {
    const verdictClass = check.met === null ? "none" : check.met ? "met" : "missed";
    return `<tr><td>${escape(check.target)}</td><td>${escape(check.engine)}</td><td>${escape(check.measured)}</td><td class="${verdictClass}">${verdict(check)}</td></tr>`;
  });
  return `<table><thead><tr><th>target</th><th>engine</th><th>measured</th><th>verdict</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function benchTable(table: BenchTable): string {
  const head = table.columns.map((column) => `<th>${escape(column)}</th>`).join("");
  const body = table.rows.map((row) => `<tr>${row.map((cell) => `<td>${escape(String(cell ?? ""))}</td>`).join("")}</tr>`).join("");
  const notes = (table.notes ?? []).map((note) => `<li>${escape(note)}</li>`).join("");
  return `<h3>${escape(table.title)}</h3><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table><ul class="notes">${notes}</ul>`;
}

export function renderHtmlReport(runs: readonly BenchRun[]): string {
  const { when, machine, load, settings, repetitions } = describeRuns(runs);
  const charts = buildCharts(runs)
    .map((chart) => `<figure id="${chart.id}">${renderChartSvg(chart)}<figcaption>${escape(chart.description)}</figcaption></figure>`)
    .join("\n");
  const tables = runs
    .map((run) => {
      const inner = run.results.flatMap((result) => result.tables.map(benchTable)).join("\n");
      return `<details><summary>Run started ${escape(run.startedAt)}: ${run.results.map((result) => result.scenario).join(", ")}</summary>${inner}</details>`;
    })
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tumira benchmarks, ${escape(when)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Tumira benchmarks</h1>
<dl class="meta">
<dt>when</dt><dd>${escape(when)}</dd>
<dt>machine</dt><dd>${escape(machine)}</dd>
<dt>load</dt><dd>${escape(load)} (the machine's load average over the minute before each run started)</dd>
<dt>settings</dt><dd>${escape(settings)}</dd>
<dt>runs</dt><dd>${repetitions === 1 ? "one run of each scenario" : `up to ${repetitions} runs of each scenario: medians, with the lowest and highest run`}</dd>
</dl>
<h2>Against the targets</h2>
${targetsTable(checkBenchTargets(groupByScenario(runs)))}
<h2>Charts</h2>
${charts}
<h2>Tables of each run</h2>
${tables}
</body>
</html>
`;
}
