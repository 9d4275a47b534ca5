// `npm run bench:handler [-- --engine sqlite --rounds 5 --seconds 3 --concurrency 50 --bulk 100000 --profile]`:
// what one single send costs the server's thread, without HTTP and without a load generator sharing
// the cores. POST /api/v1/sms runs through runApiRequest (authentication, validation, pricing, the
// group commit, the 202 body) in a loop of concurrent sends, in a process of its own running the
// code compiled as the server's is (scripts/build-server.ts). Prints sends per second and CPU µs per
// send for each round: a figure the machine's noise moves less than the HTTP scenarios', for
// comparing two versions of the send path. With --bulk N, each round is one POST /api/v1/sms/bulk of
// N recipients instead: its seconds and the process's CPU.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import { buildServer, compileEntries } from "@/scripts/build-server";
import { cleanUpOnSignals } from "./lib/cleanup";
import { createBenchDatabase, type Engine } from "./lib/database";
import { logProfile, profileDirectory } from "./lib/profile";
import { describeMachine, formatTable, log } from "./lib/report";
import { focusedBenchOptions, positive, readFocusedBenchArgs } from "./lib/settings";
import { createBenchAccount } from "./lib/tumira";
import { SINGLE_SEND_BODY } from "./scenarios/single";
import { bulkRequestBody } from "./scenarios/bulk";

const run = promisify(execFile);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      ...focusedBenchOptions({ engine: "sqlite", rounds: 5 }),
      concurrency: { type: "string", default: "50" },
      bulk: { type: "string" },
      profile: { type: "boolean", default: false },
    },
  });
  const { engine, rounds, seconds, postgresUrl } = readFocusedBenchArgs(values);
  const concurrency = Math.max(1, positive(values.concurrency, "concurrency"));
  const bulk = values.bulk === undefined ? undefined : Math.max(1, positive(values.bulk, "bulk"));
  cleanUpOnSignals();
  log(`machine: ${JSON.stringify(describeMachine())}`);
  // The CLI sets the account up; the loop runs in dist/bench-handler-loop.js.
  await buildServer();
  const [entry] = await compileEntries({ "bench-handler-loop": "bench/handler-loop.ts" });
  const database = await createBenchDatabase(engine, postgresUrl);
  try {
    const account = await createBenchAccount(database);
    log(
      bulk
        ? `handler/${engine}: ${rounds} rounds of one bulk send of ${bulk} recipients`
        : `handler/${engine}: ${rounds} rounds of ${seconds} s, ${concurrency} sends at a time`,
    );
    const bulkFile = bulk ? writeBulkBody(database.dataDir, bulk) : undefined;
    const profileDir = values.profile ? profileDirectory(`handler-${engine}`) : undefined;
    const nodeArgs = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
    const { stdout } = await run(process.execPath, [...nodeArgs, entry], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        DATABASE_URL: database.url,
        DATA_DIR: database.dataDir,
        RUN_DISPATCHER: "false",
        BENCH_TOKEN: account.token,
        BENCH_BODY: SINGLE_SEND_BODY,
        BENCH_ROUNDS: String(rounds),
        BENCH_SECONDS: String(seconds),
        BENCH_CONCURRENCY: String(concurrency),
        ...(bulkFile ? { BENCH_BULK_FILE: bulkFile } : {}),
      },
    });
    const lines = stdout.trim().split("\n");
    console.log(bulk ? bulkTable(engine, bulk, lines) : singleTable(engine, concurrency, lines));
    if (profileDir) logProfile(profileDir);
  } finally {
    await database.drop();
  }
}

/** The bulk request's body, in a file (too large for the loop's environment) that goes with the bench database. */
function writeBulkBody(dataDir: string, size: number): string {
  const file = path.join(dataDir, "bulk-request.json");
  fs.writeFileSync(file, bulkRequestBody(size));
  return file;
}

function singleTable(engine: Engine, concurrency: number, lines: string[]): string {
  const measured = lines.map(
    (line) => JSON.parse(line) as { round: number; sendsPerSecond: number; cpuMicrosPerSend: number; refused: number },
  );
  return formatTable({
    title: `Single send handler without HTTP (${engine}), ${concurrency} at a time`,
    columns: ["round", "sends/s", "CPU µs/send", "refused"],
    rows: measured.map((round) => [round.round, round.sendsPerSecond, round.cpuMicrosPerSend, round.refused]),
    notes: ["CPU: the whole process (on SQLite its checkpoint thread included), per accepted send"],
  });
}

function bulkTable(engine: Engine, size: number, lines: string[]): string {
  const measured = lines.map((line) => JSON.parse(line) as { round: number; seconds: number; cpuMillis: number; status: number });
  return formatTable({
    title: `Bulk send handler without HTTP (${engine}), ${size.toLocaleString("en")} recipients`,
    columns: ["round", "seconds", "CPU ms", "status"],
    rows: measured.map((round) => [round.round, round.seconds, round.cpuMillis, round.status]),
    notes: ["CPU: the whole process (on SQLite its checkpoint thread included); on PostgreSQL the database's is not in it"],
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
