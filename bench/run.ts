// `npm run bench [-- --only single,bulk,dispatch,read --engine sqlite,postgres --duration 10 --runs 3]`
// Runs the performance scenarios side by side with their competitors, prints progress and a table
// per scenario as it goes, and writes the run as JSON and as an HTML report with charts under
// bench/results/ (latest.json and latest.html are the newest run).
import { parseArgs } from "node:util";
import { buildServer } from "@/scripts/build-server";
import { cleanUpOnSignals } from "./lib/cleanup";
import { DEFAULT_POSTGRES_ADMIN_URL, type Engine } from "./lib/database";
import { describeMachine, formatTable, log, writeResults } from "./lib/report";
import { groupByScenario } from "./lib/spread";
import { checkBenchTargets, verdict } from "./lib/targets";
import type { BenchRun } from "./lib/results";
import { positive, type BenchSettings, type ScenarioResult } from "./lib/settings";
import { runBulkScenario } from "./scenarios/bulk";
import { runDispatchScenario } from "./scenarios/dispatch";
import { runDeliveryControlScenario } from "./scenarios/delivery-control";
import { runReadScenario } from "./scenarios/read";
import { runSingleScenario } from "./scenarios/single";

const scenarios: Record<string, (settings: BenchSettings) => Promise<ScenarioResult>> = {
  single: runSingleScenario,
  bulk: runBulkScenario,
  dispatch: runDispatchScenario,
  read: runReadScenario,
  "delivery-control": runDeliveryControlScenario,
};

const USAGE = `Usage: npm run bench -- [options]
  --only LIST            scenarios, comma-separated: ${Object.keys(scenarios).join(",")} (default: all)
  --engine LIST          sqlite,postgres (default: both)
  --duration S           seconds per measured HTTP run (default 10)
  --warmup S             unmeasured seconds before each HTTP run (default 3)
  --connections N        concurrent connections (default 50)
  --threads N            wrk threads (default 1)
  --bulk-sizes LIST      recipients per bulk send (default 1000,10000,100000)
  --dispatch-count N     messages in the dispatch scenario (default 20000)
  --postgres-url URL     admin URL where fresh databases are created (default ${DEFAULT_POSTGRES_ADMIN_URL})
  --processes N          HTTP_PROCESSES of the Tumira server: 1 (default, as the server's own default), or a cluster of N HTTP workers
  --runs N               repetitions of every scenario; the report shows each figure's median and spread (default 1)
  --profile              run the servers under test with --cpu-prof (bench/results/profiles/) and print their hot spots
Each run writes bench/results/<start>-<scenarios>.json and .html; npm run bench:report renders one or several runs again.`;

function list(text: string, allowed: readonly string[], flag: string): string[] {
  const items = text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
  const unknown = items.filter((item) => !allowed.includes(item));
  if (unknown.length > 0 || items.length === 0) throw new Error(`--${flag}: use ${allowed.join(", ")}`);
  return items;
}

function parseSettings(argv: string[]): { only: string[]; settings: BenchSettings } {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      only: { type: "string", default: Object.keys(scenarios).join(",") },
      engine: { type: "string", default: "sqlite,postgres" },
      duration: { type: "string", default: "10" },
      warmup: { type: "string", default: "3" },
      connections: { type: "string", default: "50" },
      threads: { type: "string", default: "1" },
      "bulk-sizes": { type: "string", default: "1000,10000,100000" },
      "dispatch-count": { type: "string", default: "20000" },
      "postgres-url": { type: "string", default: process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_ADMIN_URL },
      processes: { type: "string", default: "1" },
      runs: { type: "string", default: "1" },
      profile: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  return {
    only: list(values.only, Object.keys(scenarios), "only"),
    settings: {
      engines: list(values.engine, ["sqlite", "postgres"], "engine") as Engine[],
      durationSeconds: Math.max(1, positive(values.duration, "duration")),
      warmupSeconds: positive(values.warmup, "warmup"),
      connections: Math.max(1, positive(values.connections, "connections")),
      threads: Math.max(1, positive(values.threads, "threads")),
      bulkSizes: values["bulk-sizes"].split(",").map((size) => Math.max(1, positive(size, "bulk-sizes"))),
      dispatchCount: Math.max(1, positive(values["dispatch-count"], "dispatch-count")),
      postgresAdminUrl: values["postgres-url"],
      processes: Math.max(1, positive(values.processes, "processes")),
      profile: values.profile,
      runs: Math.max(1, positive(values.runs, "runs")),
    },
  };
}

function describeProcesses(processes: number): string {
  return processes === 1
    ? "HTTP_PROCESSES=1 (one process)"
    : `HTTP_PROCESSES=${processes} (a primary and ${processes} HTTP workers; peak RSS sums them)`;
}

/** The results file keeps the admin URL without its password: people pass these files around. */
function withoutPassword(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed) return "(not a URL)";
  if (parsed.password) parsed.password = "redacted";
  return parsed.toString();
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseSettings>;
  try {
    parsed = parseSettings(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  const { only, settings } = parsed;
  cleanUpOnSignals();
  await buildServer();
  const machine = describeMachine();
  log(`machine: ${JSON.stringify(machine)}`);
  const startedAt = new Date();
  const recorded = { ...settings, postgresAdminUrl: withoutPassword(settings.postgresAdminUrl) };
  const run: BenchRun = { startedAt: startedAt.toISOString(), machine, settings: recorded, results: [] };
  for (let repetition = 1; repetition <= settings.runs; repetition++) {
    for (const name of only) {
      log(`scenario ${name}${settings.runs > 1 ? ` (run ${repetition} of ${settings.runs})` : ""}: start`);
      const result = await scenarios[name](settings);
      run.results.push(result);
      for (const table of result.tables) {
        // Figures of a cluster and of one process are not comparable: every table says which it was.
        table.notes = [...(table.notes ?? []), `Tumira server: ${describeProcesses(settings.processes)}`];
        console.log(formatTable(table));
      }
      // After every scenario, so an interrupted run keeps what it measured.
      const files = writeResults(startedAt, only.join("+"), run);
      log(`results written to ${files.json} and ${files.html}`);
    }
  }
  const checks = checkBenchTargets(groupByScenario([run]));
  console.log(
    formatTable({
      title: settings.runs > 1 ? `Against the targets: median of ${settings.runs} runs (lowest–highest)` : "Against the targets",
      columns: ["target", "engine", "measured", "verdict"],
      rows: checks.map((check) => [check.target, check.engine, check.measured, verdict(check)]),
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
