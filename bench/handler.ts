// `npm run bench:handler [-- --engine sqlite --rounds 5 --seconds 3 --concurrency 50 --profile]`: what one
// single send costs the server's thread, without HTTP and without a load generator sharing the
// cores. POST /api/v1/sms runs through runApiRequest (authentication, validation, pricing, the group
// commit, the 202 body) in a loop of concurrent sends, in a process of its own running the code
// compiled as the server's is (scripts/build-server.ts). Prints sends per second and CPU µs per send for each round: a figure the
// machine's noise moves less than the HTTP scenarios', for comparing two versions of the send path.
import { execFile } from "node:child_process";
import { parseArgs, promisify } from "node:util";
import { buildServer, compileEntries } from "@/scripts/build-server";
import { cleanUpOnSignals } from "./lib/cleanup";
import { createBenchDatabase, DEFAULT_POSTGRES_ADMIN_URL, type Engine } from "./lib/database";
import { logProfile, profileDirectory } from "./lib/profile";
import { describeMachine, formatTable, log } from "./lib/report";
import { positive } from "./lib/settings";
import { createBenchAccount } from "./lib/tumira";
import { SINGLE_SEND_BODY } from "./scenarios/single";

const run = promisify(execFile);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      engine: { type: "string", default: "sqlite" },
      rounds: { type: "string", default: "5" },
      seconds: { type: "string", default: "3" },
      concurrency: { type: "string", default: "50" },
      profile: { type: "boolean", default: false },
      "postgres-url": { type: "string", default: process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_ADMIN_URL },
    },
  });
  if (values.engine !== "sqlite" && values.engine !== "postgres") throw new Error("--engine: use sqlite or postgres");
  const engine: Engine = values.engine;
  const rounds = Math.max(1, positive(values.rounds, "rounds"));
  const seconds = Math.max(1, positive(values.seconds, "seconds"));
  const concurrency = Math.max(1, positive(values.concurrency, "concurrency"));
  cleanUpOnSignals();
  log(`machine: ${JSON.stringify(describeMachine())}`);
  // The CLI sets the account up; the loop runs in dist/bench-handler-loop.js.
  await buildServer();
  const [entry] = await compileEntries({ "bench-handler-loop": "bench/handler-loop.ts" });
  const database = await createBenchDatabase(engine, values["postgres-url"]);
  try {
    const account = await createBenchAccount(database);
    log(`handler/${engine}: ${rounds} rounds of ${seconds} s, ${concurrency} sends at a time`);
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
      },
    });
    const measured = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { round: number; sendsPerSecond: number; cpuMicrosPerSend: number; refused: number });
    console.log(
      formatTable({
        title: `Single send handler without HTTP (${engine}), ${concurrency} at a time`,
        columns: ["round", "sends/s", "CPU µs/send", "refused"],
        rows: measured.map((round) => [round.round, round.sendsPerSecond, round.cpuMicrosPerSend, round.refused]),
        notes: ["CPU: the whole process (on SQLite its checkpoint thread included), per accepted send"],
      }),
    );
    if (profileDir) logProfile(profileDir);
  } finally {
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
