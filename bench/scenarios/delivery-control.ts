// Delivery control under a backlog, with the carrier paced like a real one (the simulator and the
// bind at 100 messages/s):
// - Priority: 20,000 normal messages queued for one carrier, then 100 high-priority single sends
//   spread over 10 s; each one's time from its 202 to the carrier's acceptance (its answer recorded).
// - Fairness: account A queues 20,000, then account B sends 200 single messages over 20 s to the same
//   carrier; B's time from 202 to the carrier's acceptance.
// A FIFO queue would make either wait for the backlog ahead of it: minutes at 100 messages/s.
import { createBenchDatabase, type Engine } from "../lib/database";
import { log, round, type Table } from "../lib/report";
import type { BenchSettings, ScenarioResult } from "../lib/settings";
import { BENCH_SENDER, BENCH_TEXT, createBenchAccount, startTumira, withSql, type TumiraServer } from "../lib/tumira";
import { benchTargets } from "../lib/targets";
import { fromDbTime } from "@/lib/db/sql";

const CARRIER_TPS = "100";
const BACKLOG = 20_000;
const MAX_BULK = 100_000;
const TIMEOUT_MS = 5 * 60_000;

type Kind = "priority" | "fairness";

type DeliveryControlRow = {
  kind: Kind;
  engine: Engine;
  messages: number;
  p50Seconds: number;
  p99Seconds: number;
  maxSeconds: number;
  check: string;
};

/** `count` single sends to Econet, one every `everyMs`; each message id with the time its 202 came. */
async function sendSpread(
  url: string,
  token: string,
  count: number,
  everyMs: number,
  extra: Record<string, unknown>,
): Promise<Map<string, number>> {
  const answeredAt = new Map<string, number>();
  const sends: Promise<void>[] = [];
  for (let index = 0; index < count; index++) {
    sends.push(
      (async () => {
        const response = await fetch(`${url}/api/v1/sms`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ to: `+26377${String(8_000_000 + index * 10 + 9)}`, message: BENCH_TEXT, from: BENCH_SENDER, ...extra }),
        });
        const body = (await response.json()) as { id?: string };
        if (response.status !== 202 || !body.id) throw new Error(`a single send answered ${response.status}`);
        answeredAt.set(body.id, Date.now());
      })(),
    );
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  await Promise.all(sends);
  return answeredAt;
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

async function measure(settings: BenchSettings, engine: Engine, kind: Kind): Promise<DeliveryControlRow> {
  const database = await createBenchDatabase(engine, settings.postgresAdminUrl);
  let server: TumiraServer | undefined;
  try {
    const backlogAccount = await createBenchAccount(database);
    const probeAccount = kind === "fairness" ? await createBenchAccount(database) : backlogAccount;
    server = await startTumira(database, {
      processes: settings.processes,
      env: {
        RUN_DISPATCHER: "true",
        SMSC_SIMULATOR: "on",
        // Port 0: the embedded simulator takes whatever port is free, so it cannot collide with the server's.
        SMSC_SIMULATOR_PORT: "0",
        SMSC_SIMULATOR_TPS: CARRIER_TPS,
      },
    });
    log(`delivery-control/${kind}/${engine}: queueing ${BACKLOG} normal messages for Econet`);
    // Econet only: every recipient of the backlog on the one carrier.
    const econetOnly = Array.from({ length: BACKLOG }, (_, index) => `+26377${String(1_000_000 + index * 10 + 9)}`);
    for (let offset = 0; offset < BACKLOG; offset += MAX_BULK) {
      const to = econetOnly.slice(offset, offset + MAX_BULK);
      const response = await fetch(`${server.url}/api/v1/sms/bulk`, {
        method: "POST",
        headers: { authorization: `Bearer ${backlogAccount.token}`, "content-type": "application/json" },
        body: JSON.stringify({ to, message: BENCH_TEXT, from: BENCH_SENDER }),
      });
      await response.text();
      if (response.status !== 202) throw new Error(`delivery-control: the backlog's bulk send answered ${response.status}`);
    }
    const probes =
      kind === "priority"
        ? await sendSpread(server.url, probeAccount.token, 100, 100, { priority: "high" })
        : await sendSpread(server.url, probeAccount.token, 200, 100, {});
    const ids = [...probes.keys()];
    const deadline = Date.now() + TIMEOUT_MS;
    const accepted = await withSql(database, async (sql) => {
      for (;;) {
        const rows = await sql.all<{ id: string; status: string; finishedAt: unknown }>(
          `SELECT "id", "status", "finishedAt" FROM "Message" WHERE "accountId" = ? AND "status" IN ('success', 'failed') AND "bulkSendId" IS NULL`,
          [probeAccount.accountId],
        );
        const done = rows.filter((row) => probes.has(row.id));
        if (done.length >= ids.length || Date.now() > deadline) return done;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    });
    const latencies = accepted
      .filter((row) => row.status === "success")
      .map((row) => (fromDbTime(row.finishedAt).getTime() - probes.get(row.id)!) / 1000)
      .sort((a, b) => a - b);
    return {
      kind,
      engine,
      messages: ids.length,
      p50Seconds: percentile(latencies, 0.5),
      p99Seconds: percentile(latencies, 0.99),
      maxSeconds: latencies.length > 0 ? latencies[latencies.length - 1] : Number.NaN,
      check: `${latencies.length} of ${ids.length} accepted by the carrier within ${TIMEOUT_MS / 1000} s`,
    };
  } finally {
    await server?.stop();
    await database.drop();
  }
}

export async function runDeliveryControlScenario(settings: BenchSettings): Promise<ScenarioResult> {
  const rows: DeliveryControlRow[] = [];
  for (const kind of ["priority", "fairness"] as const) {
    for (const engine of settings.engines) rows.push(await measure(settings, engine, kind));
  }
  const table: Table = {
    title: `Delivery control: ${BACKLOG.toLocaleString("en")} normal messages queued for one carrier at ${CARRIER_TPS} messages/s; time from 202 to the carrier's acceptance`,
    columns: ["scenario", "engine", "messages", "p50 s", "p99 s", "max s"],
    rows: rows.map((row) => [
      row.kind === "priority" ? "100 high-priority sends over 10 s" : "another account's 200 sends over 20 s",
      row.engine,
      row.messages,
      round(row.p50Seconds),
      round(row.p99Seconds),
      round(row.maxSeconds),
    ]),
    notes: [
      ...rows.map((row) => `${row.kind} (${row.engine}): ${row.check}`),
      `targets: priority p99 ≤ ${benchTargets.priorityP99Seconds} s; fairness p99 ≤ ${benchTargets.fairnessP99Seconds} s`,
      "Kannel: not measured here (its sendsms priority field is not compared in this scenario)",
    ],
  };
  return { scenario: "delivery-control", tables: [table], data: { rows } };
}
