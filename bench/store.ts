// `npm run bench:store [-- --engine postgres --batches 1,13,50 --rounds 3 --seconds 3]`: what one batch
// of single sends costs the message store, without HTTP, the API or a second batch in flight. Each
// round commits batches of the given size one after another (getStores().messages.commitSends, the
// group commit's call) for a few seconds, and prints per accepted send: the wall time, this
// process's CPU and, on a PostgreSQL on this machine, the database server's CPU. The figures to
// compare two versions of the store with: run both, alternating, on the same machine.
import { parseArgs } from "node:util";
import type { PreparedSend } from "@/lib/model/sends";
import { cleanUpOnSignals } from "./lib/cleanup";
import { createBenchDatabase } from "./lib/database";
import { describeMachine, formatTable, log, round } from "./lib/report";
import { randomRecipient } from "./lib/recipients";
import { focusedBenchOptions, positive, readFocusedBenchArgs } from "./lib/settings";
import { BENCH_SENDER, BENCH_TEXT, createBenchAccount } from "./lib/tumira";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { ...focusedBenchOptions({ engine: "postgres", rounds: 3 }), batches: { type: "string", default: "1,13,50" } },
  });
  const { engine, rounds, seconds, postgresUrl } = readFocusedBenchArgs(values);
  const batchSizes = values.batches.split(",").map((size) => Math.max(1, positive(size, "batches")));
  cleanUpOnSignals();
  log(`machine: ${JSON.stringify(describeMachine())}`);
  const database = await createBenchDatabase(engine, postgresUrl);
  try {
    const account = await createBenchAccount(database);
    // The store reads its database from the environment, on first use.
    process.env.DATABASE_URL = database.url;
    process.env.DATA_DIR = database.dataDir;
    const { commitBatch, sendOf } = await loadStore(account.accountId);
    const rows: Array<Array<string | number>> = [];
    // Batches of `size` for `seconds`: the number of sends committed.
    const commitFor = async (size: number): Promise<number> => {
      const started = performance.now();
      let sends = 0;
      while (performance.now() - started < seconds * 1000) {
        await commitBatch(Array.from({ length: size }, sendOf));
        sends += size;
      }
      return sends;
    };
    for (const size of batchSizes) {
      await commitFor(size); // unmeasured: the code compiled, the statements prepared
      for (let index = 1; index <= rounds; index++) {
        const serverCpuBefore = database.serverCpuSeconds?.() ?? null;
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        const sends = await commitFor(size);
        const wallMicros = (performance.now() - started) * 1000;
        const cpu = process.cpuUsage(cpuBefore);
        const serverCpuAfter = database.serverCpuSeconds?.() ?? null;
        const serverMicros = serverCpuBefore === null || serverCpuAfter === null ? null : (serverCpuAfter - serverCpuBefore) * 1e6;
        rows.push([
          size,
          index,
          round(sends / (wallMicros / 1e6)),
          round(wallMicros / sends),
          round((cpu.user + cpu.system) / sends),
          serverMicros === null ? "n/a" : round(serverMicros / sends),
        ]);
        log(`batches of ${size}: round ${index} of ${rounds} done`);
      }
    }
    console.log(
      formatTable({
        title: `Message store, batches of single sends one after another (${engine})`,
        columns: ["batch", "round", "sends/s", "wall µs/send", "CPU µs/send", "database CPU µs/send"],
        rows,
        notes: ["CPU: this process; database CPU: the PostgreSQL server's processes (n/a for SQLite, which runs in this process)"],
      }),
    );
  } finally {
    await database.drop();
  }
}

/** The engine's message store and a maker of live single sends to random recipients, as the API prepares them. */
async function loadStore(accountId: string) {
  const [{ getStores }, { priceSend }, { parseMsisdn }, { segmentMessage }, { db }] = await Promise.all([
    import("@/lib/db/stores"),
    import("@/lib/messages/commit-sends"),
    import("@/lib/messages/msisdn"),
    import("@/lib/messages/segments"),
    import("@/lib/db/client"),
  ]);
  const key = await db().apiKey.findFirstOrThrow({ where: { accountId } });
  const { encoding, segments } = segmentMessage(BENCH_TEXT);
  const sendOf = (): PreparedSend => {
    const parsed = parseMsisdn(randomRecipient());
    if (!parsed.ok) throw new Error(parsed.reason);
    return {
      accountId,
      senderName: BENCH_SENDER,
      body: BENCH_TEXT,
      encoding,
      segments,
      recipients: [parsed.recipient],
      webhookUrl: null,
      actor: `key:${key.id}`,
      apiKeyId: key.id,
      userId: null,
      test: false,
      bulk: false,
      control: { priority: "normal", sendAt: null, validityPeriod: null },
    };
  };
  const commitBatch = async (sends: PreparedSend[]) => {
    const outcomes = await getStores().messages.commitSends(sends, priceSend);
    const refused = outcomes.find((outcome) => outcome instanceof Error);
    if (refused) throw refused;
  };
  return { commitBatch, sendOf };
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
