// Dispatch. N messages already queued; how fast they reach the SMSC, from the first
// message out to the last (so neither side's start-up counts).
// - Tumira: messages accepted with the dispatcher off, then a server with the dispatcher on, talking
//   SMPP (window 50) to the SMSC simulator, uncapped, in a process of its own, until all are `success`.
// - Kannel over SMPP to that same simulator process (window 50), as it dispatches by default: no
//   delivery receipt asked for (the target's comparison), and again with receipts asked for
//   (dlr-mask=3 on every sendsms), as Tumira asks for one with every submit: like for like.
// - Kannel to its fake SMSC (a line protocol without acknowledgements): Kannel's own best case.
// Kannel's queue is filled through sendsms while its SMSC is away; then the fake SMSC is started, or
// the simulator process starts listening where Kannel's SMPP client keeps trying to connect.
import { benchTargets } from "../lib/targets";
import { createBenchDatabase, type Engine } from "../lib/database";
import { startKannel, type Kannel, type KannelSmsc } from "../lib/kannel";
import { SIMULATOR_BIND, startSimulatorHost } from "../lib/simulator-host";
import { freePort } from "@/tests/helpers/server-process";
import { log, round, type Table } from "../lib/report";
import type { BenchSettings, ScenarioResult } from "../lib/settings";
import { createBenchAccount, startTumira, withSql, type TumiraServer } from "../lib/tumira";
import { profileDirectory } from "../lib/profile";
import type { Sql } from "@/lib/db/sql";
import { sendBulk } from "./bulk";

const POLL_MS = 50;
const TIMEOUT_MS = 10 * 60_000;
const MAX_BULK = 100_000;
const UNCAPPED_TPS = "1000000";

type DispatchRow = {
  gateway: "kannel" | "tumira";
  competitor: string;
  engine: string;
  messages: number;
  seconds: number;
  messagesPerSecond: number;
  /** The gateway's own CPU time per message (not the SMSC's): a figure a busy machine does not skew. */
  cpuMicrosecondsPerMessage: number;
  /** PostgreSQL's own server processes per message over the same interval; null where it is not counted apart. */
  databaseCpuMicrosecondsPerMessage: number | null;
  peakRssMb: number | null;
  check: string;
};

type Progress = { done: number; seconds: number; cpuSeconds: number; databaseCpuSeconds: number | null };

/**
 * Polls a counter until it reaches total; the rate, and the CPU times `cpu` and `databaseCpu`
 * read, run from the first poll that saw progress.
 */
async function timeUntilDone(
  label: string,
  total: number,
  count: () => Promise<number>,
  cpu: () => number,
  databaseCpu: (() => number) | null = null,
): Promise<Progress> {
  const deadline = Date.now() + TIMEOUT_MS;
  let first: { at: number; done: number; cpuSeconds: number; databaseCpuSeconds: number } | undefined;
  let lastLog = Date.now();
  for (;;) {
    const done = await count();
    const now = performance.now();
    if (done > 0 && !first) first = { at: now, done, cpuSeconds: cpu(), databaseCpuSeconds: databaseCpu?.() ?? 0 };
    if (done >= total) {
      if (!first || first.done >= total) return { done, seconds: Number.NaN, cpuSeconds: Number.NaN, databaseCpuSeconds: null };
      return {
        done: done - first.done,
        seconds: (now - first.at) / 1000,
        cpuSeconds: cpu() - first.cpuSeconds,
        databaseCpuSeconds: databaseCpu ? databaseCpu() - first.databaseCpuSeconds : null,
      };
    }
    if (Date.now() > deadline) throw new Error(`${label}: only ${done} of ${total} after ${TIMEOUT_MS / 1000} s`);
    if (Date.now() - lastLog > 5000) {
      log(`${label}: ${done}/${total}`);
      lastLog = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Kannel's dlr-mask for a final receipt, delivered (1) or not (2): registered_delivery on every submit_sm. */
const FINAL_RECEIPTS_MASK = 3;

/** connectSmsc brings the SMSC up once the queue is full. */
async function measureKannel(
  count: number,
  smsc: KannelSmsc,
  competitor: string,
  connectSmsc: (kannel: Kannel) => Promise<void>,
  { receipts = false } = {},
): Promise<DispatchRow> {
  const kannel = await startKannel({ smsc });
  try {
    log(`dispatch/${competitor}: queueing ${count} messages through sendsms`);
    const path = kannel.sendsmsPath.replace("{msisdn}", "263771234569") + (receipts ? `&dlr-mask=${FINAL_RECEIPTS_MASK}` : "");
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < count) {
          next += 1;
          const response = await fetch(kannel.sendsmsUrl + path);
          await response.text();
          if (response.status !== 202) throw new Error(`Kannel sendsms answered ${response.status}`);
        }
      }),
    );
    await timeUntilDone(`dispatch/${competitor} queued`, count, async () => (await kannel.counters()).accepted, kannel.cpuSeconds);
    await connectSmsc(kannel);
    const progress = await timeUntilDone(
      `dispatch/${competitor}`,
      count,
      async () => (await kannel.counters()).sentToSmsc,
      kannel.cpuSeconds,
    );
    const final = await kannel.counters();
    return {
      gateway: "kannel",
      competitor,
      engine: "-",
      messages: count,
      seconds: progress.seconds,
      messagesPerSecond: progress.done / progress.seconds,
      cpuMicrosecondsPerMessage: (progress.cpuSeconds / progress.done) * 1e6,
      databaseCpuMicrosecondsPerMessage: null,
      peakRssMb: kannel.peakRssMb(),
      // Receipts come a second after their submit (the simulator's delay): most after this run's interval.
      check: `${final.sentToSmsc} reached the SMSC${receipts ? `, ${final.receipts} receipts back by the end` : ""}`,
    };
  } finally {
    await kannel.stop();
  }
}

async function countQueued(sql: Sql): Promise<number> {
  const row = await sql.get<{ queued: number | string }>(
    `SELECT (SELECT COUNT(*) FROM "Message" WHERE "status" = 'enqueued') + (SELECT COUNT(*) FROM "Message" WHERE "status" = 'processing') AS "queued"`,
  );
  return Number(row!.queued);
}

async function measureTumira(settings: BenchSettings, engine: Engine, simulatorPort: number): Promise<DispatchRow> {
  const database = await createBenchDatabase(engine, settings.postgresAdminUrl);
  let server: TumiraServer | undefined;
  try {
    const account = await createBenchAccount(database);
    server = await startTumira(database, { processes: settings.processes });
    log(`dispatch/${engine}: queueing ${settings.dispatchCount} messages (dispatcher off)`);
    for (let offset = 0; offset < settings.dispatchCount; offset += MAX_BULK) {
      const sent = await sendBulk(server.url, account.token, Math.min(MAX_BULK, settings.dispatchCount - offset), offset);
      if (sent.status !== 202) throw new Error(`dispatch/${engine}: the bulk send answered ${sent.status}: ${sent.error}`);
    }
    await server.stop();
    const dispatcher = {
      RUN_DISPATCHER: "true",
      SMSC_SIMULATOR: "off",
      SMSC_SIMULATOR_PORT: String(simulatorPort),
      SMSC_SIMULATOR_TPS: UNCAPPED_TPS,
    };
    server = await startTumira(database, {
      processes: settings.processes,
      env: dispatcher,
      profileDir: settings.profile ? profileDirectory(`dispatch-${engine}`) : undefined,
    });
    // Messages in a final state, counted as those no longer queued (a refused one ends failed, a retried
    // one is queued again). Counting what is left reads the queue's partial indexes; counting the final
    // states would scan every message, and the database would spend on the poll what the run measures.
    const dispatching = server;
    const progress = await withSql(database, (sql) =>
      timeUntilDone(
        `dispatch/${engine}`,
        settings.dispatchCount,
        async () => settings.dispatchCount - (await countQueued(sql)),
        dispatching.cpuSeconds,
        database.serverCpuSeconds,
      ),
    );
    const outcome = await withSql(database, (sql) =>
      sql.all<{ status: string; count: number; delivered: number }>(
        `SELECT "status", COUNT(*) AS "count", COUNT("deliveredAt") AS "delivered" FROM "Message" GROUP BY "status"`,
      ),
    );
    return {
      gateway: "tumira",
      competitor: "Tumira → SMPP → simulator",
      engine,
      messages: settings.dispatchCount,
      seconds: progress.seconds,
      messagesPerSecond: progress.done / progress.seconds,
      cpuMicrosecondsPerMessage: (progress.cpuSeconds / progress.done) * 1e6,
      databaseCpuMicrosecondsPerMessage: progress.databaseCpuSeconds === null ? null : (progress.databaseCpuSeconds / progress.done) * 1e6,
      peakRssMb: server.peakRssMb(),
      check: `${outcome.map((row) => `${row.count} ${row.status}`).join(", ")}, ${outcome.reduce((sum, row) => sum + Number(row.delivered), 0)} receipts recorded by the end`,
    };
  } finally {
    await server?.stop();
    await database.drop();
  }
}

export async function runDispatchScenario(settings: BenchSettings): Promise<ScenarioResult> {
  const rows: DispatchRow[] = [];
  const simulatorPort = await freePort();
  let simulator: { stop: () => Promise<void> } | undefined;
  // A fresh simulator process per run: one keeps the receipts its last client left unacknowledged and
  // hands them to the next client that binds: a shared one would have each gateway spend its run on
  // the previous run's receipts for ids it does not know.
  const startSimulator = async () => void (simulator = await startSimulatorHost(settings, simulatorPort, UNCAPPED_TPS));
  const stopSimulator = async () => {
    await simulator?.stop();
    simulator = undefined;
  };
  try {
    const smpp: KannelSmsc = { kind: "smpp", port: simulatorPort, ...SIMULATOR_BIND };
    rows.push(await measureKannel(settings.dispatchCount, smpp, "Kannel 1.4.5 → SMPP → simulator", startSimulator));
    await stopSimulator();
    rows.push(
      await measureKannel(settings.dispatchCount, smpp, "Kannel 1.4.5 → SMPP → simulator, receipts asked for", startSimulator, {
        receipts: true,
      }),
    );
    await stopSimulator();
    rows.push(
      await measureKannel(settings.dispatchCount, { kind: "fake" }, "Kannel 1.4.5 → fakesmsc", async (kannel) => kannel.connectFakeSmsc()),
    );
    for (const engine of settings.engines) {
      await startSimulator();
      rows.push(await measureTumira(settings, engine, simulatorPort));
      await stopSimulator();
    }
  } finally {
    await stopSimulator();
  }
  const [kannelSmpp, kannelReceipts, kannelFake] = rows;
  const table: Table = {
    title: `Dispatch: ${settings.dispatchCount} queued messages to the SMSC, from the first out to the last`,
    columns: [
      "competitor",
      "engine",
      "seconds",
      "messages/s",
      "× Kannel SMPP",
      "× Kannel SMPP with receipts",
      "× Kannel fake",
      "gateway CPU µs/message",
      "database CPU µs/message",
      "peak RSS MB",
    ],
    rows: rows.map((row) => [
      row.competitor,
      row.engine,
      round(row.seconds),
      round(row.messagesPerSecond),
      round(row.messagesPerSecond / kannelSmpp.messagesPerSecond),
      round(row.messagesPerSecond / kannelReceipts.messagesPerSecond),
      round(row.messagesPerSecond / kannelFake.messagesPerSecond),
      round(row.cpuMicrosecondsPerMessage),
      row.databaseCpuMicrosecondsPerMessage === null ? "" : round(row.databaseCpuMicrosecondsPerMessage),
      row.peakRssMb === null ? "" : round(row.peakRssMb),
    ]),
    notes: [
      ...rows.map((row) => `${row.competitor} (${row.engine}): ${row.check}`),
      "database CPU: PostgreSQL's server processes over the same interval, the progress polls' COUNT included (SQLite runs inside the gateway and is in its CPU)",
      `target: ≥ ${benchTargets.dispatchTimesKannel} × Kannel's rate`,
    ],
  };
  return { scenario: "dispatch", tables: [table], data: { rows } };
}
