import type { Engine } from "./database";

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
};

/** What a scenario returns: the file format of lib/benchmarks/bench-run-schema.ts, checked when compiled. */
export type { ScenarioResult } from "@/lib/benchmarks/bench-run-schema";
