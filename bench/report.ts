// `npm run bench:report -- [options] [RUN.json ...]`: the report of runs `npm run bench` wrote,
// with each figure's spread when several runs are given, as HTML, as markdown, or into the docs.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { renderHtmlReport } from "./lib/html-report";
import { DOCS_CHARTS_DIR, DOCS_FILE, renderMarkdownFigures, writeDocsFigures } from "./lib/markdown-report";
import { readRun, RESULTS_DIR } from "./lib/report";

const USAGE = `Usage: npm run bench:report -- [options] [RUN.json ...]
  RUN.json      run files of npm run bench (default: bench/results/latest.json); with several runs of a
                scenario (several files, or a run with --runs N), each figure is their median, and the
                charts show the lowest to the highest run
  --html FILE   where the HTML report goes (default: bench/results/report.html)
  --markdown    also print the figures section of docs/performance.md on stdout
  --docs        also write the charts into docs/performance/ and the figures section into docs/performance.md`;

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      html: { type: "string", default: path.join(RESULTS_DIR, "report.html") },
      markdown: { type: "boolean", default: false },
      docs: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const files = positionals.length > 0 ? positionals : [path.join(RESULTS_DIR, "latest.json")];
  const runs = files.map(readRun);
  fs.mkdirSync(path.dirname(path.resolve(values.html)), { recursive: true });
  fs.writeFileSync(values.html, renderHtmlReport(runs));
  process.stderr.write(`HTML report of ${runs.length} run file(s): ${values.html}\n`);
  if (values.markdown) process.stdout.write(renderMarkdownFigures(runs, (chart) => `performance/${chart.id}.svg`).markdown);
  if (values.docs) {
    writeDocsFigures(runs);
    process.stderr.write(
      `figures and charts written: ${path.relative(process.cwd(), DOCS_FILE)}, ${path.relative(process.cwd(), DOCS_CHARTS_DIR)}/\n`,
    );
  }
}

try {
  main();
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
