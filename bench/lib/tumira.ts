// Tumira under test: an account set up through the admin CLI (as an operator would), and the real
// server process (`dist/server.js --api-only`, with HTTP_PROCESSES from --processes) on a free port.
// The benchmarks' entry points build dist/ first (scripts/build-server.ts).
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { startServerProcess, type ServerProcess } from "@/tests/helpers/server-process";
import { openSql, type Sql } from "@/lib/db/sql";
import { DIST_DIR } from "@/scripts/build-server";
import { createBenchDatabase, type BenchDatabase, type Engine } from "./database";
import { cpuSeconds, peakRssMb, sampleTreeRss } from "./memory";
import { whileRunning } from "./cleanup";
import { logProfile, profileDirectory } from "./profile";
import type { BenchSettings } from "./settings";

const run = promisify(execFile);

export const BENCH_SENDER = "BENCH";
export const BENCH_TEXT = "Hello from the Tumira benchmark";

export type BenchAccount = { accountId: string; token: string };

function processEnv(database: BenchDatabase): Record<string, string> {
  return { NODE_ENV: "production", LOG_LEVEL: "warn", DATABASE_URL: database.url, DATA_DIR: database.dataDir };
}

export async function cli(database: BenchDatabase, args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [path.join(DIST_DIR, "cli.js"), ...args], {
    env: { ...process.env, ...processEnv(database) },
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** A live account with an approved sender, a balance no run exhausts, and no practical rate limit. */
export async function createBenchAccount(database: BenchDatabase): Promise<BenchAccount> {
  const account = await cli(database, [
    "accounts:create",
    "--name",
    "Bench",
    "--currency",
    "USD",
    "--balance",
    "100000000",
    "--sender",
    BENCH_SENDER,
  ]);
  const accountId = String(account.id);
  const key = await cli(database, ["keys:create", "--account", accountId, "--name", "bench"]);
  const token = String(key.token);
  await cli(database, ["accounts:rate-limit", "--account", accountId, "--limit", "9999999"]);
  return { accountId, token };
}

export type TumiraServer = ServerProcess & {
  /** The process tree's peak RSS (sampled sum), since the server started. */
  peakRssMb: () => number | null;
  /** The process tree's peak proportional set size (shared pages counted once), sampled like peakRssMb. */
  peakPssMb: () => number | null;
  /** The sum of each process's own peak RSS: an upper bound of the tree's, counting start-up peaks too. */
  peakRssUpperBoundMb: () => number | null;
  cpuSeconds: () => number;
};

export type TumiraOptions = {
  /** HTTP_PROCESSES: 1, or a cluster of a primary and this many HTTP workers. */
  processes: number;
  env?: Record<string, string>;
  /** Profile every process of the server (node --cpu-prof) into this directory. */
  profileDir?: string;
};

/** Starts the API-only server (dispatcher off unless env says otherwise). */
export async function startTumira(database: BenchDatabase, { processes, env = {}, profileDir }: TumiraOptions): Promise<TumiraServer> {
  // --cpu-prof is refused in NODE_OPTIONS. Cluster workers inherit the primary's node flags, so each
  // writes its own profile.
  const server = await startServerProcess({
    databaseUrl: database.url,
    dataDir: database.dataDir,
    nodeArgs: profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
    env: { RUN_DISPATCHER: "false", SMSC_SIMULATOR: "off", HTTP_PROCESSES: String(processes), ...processEnv(database), ...env },
  });
  // The whole process tree: a cluster's primary and workers.
  const rss = sampleTreeRss(server.child.pid!);
  const stop = whileRunning(async () => {
    rss.stop();
    await server.stop();
    if (profileDir) logProfile(profileDir);
  });
  return {
    ...server,
    peakRssMb: rss.peakMb,
    peakPssMb: rss.peakPssMb,
    peakRssUpperBoundMb: () => peakRssMb(server.child.pid!),
    cpuSeconds: () => cpuSeconds(server.child.pid!),
    stop: async () => {
      await stop();
      return server.child.exitCode;
    },
  };
}

export type TumiraRun = { database: BenchDatabase; account: BenchAccount; server: TumiraServer };

/** Fresh database, bench account and server for one run; everything is stopped and dropped after. */
export async function withFreshTumira<T>(
  settings: BenchSettings,
  engine: Engine,
  label: string,
  run: (tumira: TumiraRun) => Promise<T>,
): Promise<T> {
  const database = await createBenchDatabase(engine, settings.postgresAdminUrl);
  let server: TumiraServer | undefined;
  try {
    const account = await createBenchAccount(database);
    server = await startTumira(database, {
      processes: settings.processes,
      profileDir: settings.profile ? profileDirectory(`${label}-${engine}`) : undefined,
    });
    return await run({ database, account, server });
  } finally {
    await server?.stop();
    await database.drop();
  }
}

/** Runs fn with the lib/db/sql.ts layer on the benchmark's database (counts, ids, row copies). */
export async function withSql<T>(database: BenchDatabase, fn: (sql: Sql) => Promise<T>): Promise<T> {
  const sql = openSql(database.url);
  try {
    return await fn(sql);
  } finally {
    await sql.close();
  }
}

export async function countMessages(database: BenchDatabase): Promise<number> {
  return withSql(database, async (sql) => Number((await sql.get<{ count: number }>(`SELECT COUNT(*) AS "count" FROM "Message"`))!.count));
}
