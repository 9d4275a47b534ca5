import { DEFAULT_POSTGRES_ADMIN_URL, type Engine } from "./database";

export type BenchSettings = {
  engines: Engine[];
  /** Length of each measured HTTP load run. */
  durationSeconds: number;
  /** Unmeasured load before each measured run (JIT, caches, connection pools). */
  warmupSeconds: number;
  connections: number;
  /** wrk threads: one keeps the load generator's share of the 2 cores small. */
  threads: number;
  bulkSizes: number[];
  dispatchCount: number;
  postgresAdminUrl: string;
  /** HTTP_PROCESSES of the server under test: 1 is one process, N a cluster primary and N HTTP workers. */
  processes: number;
  /** Run the servers under test with --cpu-prof and print their heaviest functions. */
  profile: boolean;
  /** Repetitions of every scenario, for the run-to-run spread. */
  runs: number;
};

/** A command-line option's whole number, or an error naming the option. */
export function positive(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${flag} must be a whole number`);
  return value;
}

/** The options every focused bench (bench:handler, bench:store) takes, for its parseArgs. */
export function focusedBenchOptions(defaults: { engine: Engine; rounds: number }) {
  return {
    engine: { type: "string", default: defaults.engine },
    rounds: { type: "string", default: String(defaults.rounds) },
    seconds: { type: "string", default: "3" },
    "postgres-url": { type: "string", default: process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_ADMIN_URL },
  } as const;
}

/** Those options' values, checked: an error names the option. */
export function readFocusedBenchArgs(values: { engine: string; rounds: string; seconds: string; "postgres-url": string }) {
  if (values.engine !== "sqlite" && values.engine !== "postgres") throw new Error("--engine: use sqlite or postgres");
  return {
    engine: values.engine as Engine,
    rounds: Math.max(1, positive(values.rounds, "rounds")),
    seconds: Math.max(1, positive(values.seconds, "seconds")),
    postgresUrl: values["postgres-url"],
  };
}

/** What a scenario returns: the file format of ./results.ts, checked when compiled. */
export type { ScenarioResult } from "./results";
