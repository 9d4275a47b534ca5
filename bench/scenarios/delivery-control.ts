// Delivery control under a backlog, with the carrier paced like a real one (the simulator and the
// bind at 100 messages/s):
// - Priority: 20,000 normal messages queued for one carrier, then 100 high-priority single sends
//   spread over 10 s; each one's time from its 202 to the carrier's acceptance (its answer recorded).
// - Fairness: account A queues 20,000, then account B sends 200 single messages over 20 s to the same
//   carrier; B's time from 202 to the carrier's acceptance.
// A FIFO queue would make either wait for the backlog ahead of it: minutes at 100 messages/s.
// Kannel is measured in the priority case, where it has the means (sendsms `priority`, its queue
// ordered by it): bound over SMPP to the same simulator at the same pace, its probes' time runs
// from sendsms's 202 to the delivery report it gives for the carrier's answer (dlr-mask 8). It has
// no means to keep one sender from starving another, so the fairness case has no Kannel figure.
import http from "node:http";
import { createBenchDatabase, type Engine } from "../lib/database";
import { startKannel } from "../lib/kannel";
import { log, round, type Table } from "../lib/report";
import type { BenchSettings, ScenarioResult } from "../lib/settings";
import { SIMULATOR_BIND, startSimulatorHost } from "../lib/simulator-host";
import { BENCH_SENDER, BENCH_TEXT, createBenchAccount, startTumira, withSql, type TumiraServer } from "../lib/tumira";
import { benchTargets } from "../lib/targets";
import { fromDbTime } from "@/lib/db/sql";
import { freePort } from "@/tests/helpers/server-process";

const CARRIER_TPS = "100";
const BACKLOG = 20_000;
const MAX_BULK = 100_000;
const TIMEOUT_MS = 5 * 60_000;
const PROBES = { priority: { count: 100, everyMs: 100 }, fairness: { count: 200, everyMs: 100 } };
/** Kannel's probes are waited for this long after the last one: a FIFO queue would take minutes. */
const KANNEL_WAIT_MS = 60_000;
/** Kannel's highest sendsms priority; the SMPP priority_flag it sets and the order of its queue. */
const KANNEL_HIGH_PRIORITY = 3;
/** Delivery report types Kannel calls dlr-url for: 8, the carrier accepted the submit; 16, it refused it. */
const KANNEL_SUBMIT_REPORTS = { mask: 24, accepted: 8 };

type Kind = "priority" | "fairness";

type DeliveryControlRow = {
  gateway: "tumira" | "kannel";
  kind: Kind;
  engine: Engine | "-";
  messages: number;
  p50Seconds: number | null;
  p99Seconds: number | null;
  maxSeconds: number | null;
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

/** Of `count` probes, the latencies of those that arrived; a percentile beyond them is unknown (null). */
function percentile(sorted: number[], count: number, fraction: number): number | null {
  const rank = Math.max(1, Math.ceil(fraction * count));
  return rank <= sorted.length ? sorted[rank - 1] : null;
}

function latencyFigures(latencies: number[], count: number) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    messages: count,
    p50Seconds: percentile(sorted, count, 0.5),
    p99Seconds: percentile(sorted, count, 0.99),
    maxSeconds: sorted.length === count ? sorted[sorted.length - 1] : null,
  };
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
    const { count, everyMs } = PROBES[kind];
    const probes = await sendSpread(server.url, probeAccount.token, count, everyMs, kind === "priority" ? { priority: "high" } : {});
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
      .map((row) => (fromDbTime(row.finishedAt).getTime() - probes.get(row.id)!) / 1000);
    return {
      gateway: "tumira",
      kind,
      engine,
      ...latencyFigures(latencies, ids.length),
      check: `${latencies.length} of ${ids.length} accepted by the carrier within ${TIMEOUT_MS / 1000} s`,
    };
  } finally {
    await server?.stop();
    await database.drop();
  }
}

/** Kannel over SMPP to the simulator, both at the carrier's pace: the backlog, then high-priority probes. */
async function measureKannelPriority(settings: BenchSettings): Promise<DeliveryControlRow> {
  const reports = await startReportReceiver();
  const simulatorPort = await freePort();
  const simulator = await startSimulatorHost(settings, simulatorPort, CARRIER_TPS);
  const kannel = await startKannel({
    smsc: { kind: "smpp", port: simulatorPort, ...SIMULATOR_BIND, throughput: Number(CARRIER_TPS) },
  }).catch(async (error) => {
    await simulator.stop();
    throw error;
  });
  try {
    await kannel.waitUntilOnline();
    log(`delivery-control/priority/kannel: queueing ${BACKLOG} normal messages through sendsms`);
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < BACKLOG) {
          const msisdn = `26377${String(1_000_000 + next++ * 10 + 9)}`;
          await kannelSend(kannel.sendsmsUrl + kannel.sendsmsPath.replace("{msisdn}", msisdn));
        }
      }),
    );
    const { count, everyMs } = PROBES.priority;
    const answeredAt = new Map<number, number>();
    const sends: Promise<void>[] = [];
    for (let probe = 0; probe < count; probe++) {
      const dlrUrl = `${reports.url}/?probe=${probe}&type=%d`;
      const path =
        kannel.sendsmsPath.replace("{msisdn}", `26377${String(8_000_000 + probe * 10 + 9)}`) +
        `&priority=${KANNEL_HIGH_PRIORITY}&dlr-mask=${KANNEL_SUBMIT_REPORTS.mask}&dlr-url=${encodeURIComponent(dlrUrl)}`;
      sends.push(kannelSend(kannel.sendsmsUrl + path).then(() => void answeredAt.set(probe, Date.now())));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    await Promise.all(sends);
    const deadline = Date.now() + KANNEL_WAIT_MS;
    while (reports.acceptedAt.size < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const latencies = [...reports.acceptedAt].map(([probe, at]) => (at - answeredAt.get(probe)!) / 1000);
    return {
      gateway: "kannel",
      kind: "priority",
      engine: "-",
      ...latencyFigures(latencies, count),
      check: `${latencies.length} of ${count} accepted by the carrier within ${KANNEL_WAIT_MS / 1000} s of the last probe (${reports.refused} refused)`,
    };
  } finally {
    await kannel.stop();
    await simulator.stop();
    await reports.stop();
  }
}

async function kannelSend(url: string): Promise<void> {
  const response = await fetch(url);
  await response.text();
  if (response.status !== 202) throw new Error(`Kannel sendsms answered ${response.status}`);
}

/** Takes Kannel's delivery reports (its dlr-url calls): when the carrier's answer to each probe came. */
async function startReportReceiver() {
  const acceptedAt = new Map<number, number>();
  let refused = 0;
  const server = http.createServer((request, response) => {
    const query = new URL(request.url ?? "/", "http://reports").searchParams;
    const probe = Number(query.get("probe"));
    if (Number(query.get("type")) === KANNEL_SUBMIT_REPORTS.accepted) {
      if (!acceptedAt.has(probe)) acceptedAt.set(probe, Date.now());
    } else refused++;
    response.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    acceptedAt,
    get refused() {
      return refused;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function runDeliveryControlScenario(settings: BenchSettings): Promise<ScenarioResult> {
  const rows: DeliveryControlRow[] = [];
  for (const kind of ["priority", "fairness"] as const) {
    for (const engine of settings.engines) rows.push(await measure(settings, engine, kind));
  }
  rows.push(await measureKannelPriority(settings));
  const table: Table = {
    title: `Delivery control: ${BACKLOG.toLocaleString("en")} normal messages queued for one carrier at ${CARRIER_TPS} messages/s; time from 202 to the carrier's acceptance`,
    columns: ["scenario", "gateway", "engine", "messages", "p50 s", "p99 s", "max s"],
    rows: rows.map((row) => [
      row.kind === "priority" ? "100 high-priority sends over 10 s" : "another account's 200 sends over 20 s",
      row.gateway === "kannel" ? "Kannel 1.4.5 (sendsms priority=3)" : "Tumira",
      row.engine,
      row.messages,
      ...[row.p50Seconds, row.p99Seconds, row.maxSeconds].map((value) => (value === null ? "not reached" : round(value))),
    ]),
    notes: [
      ...rows.map((row) => `${row.kind} (${row.gateway === "kannel" ? "Kannel" : row.engine}): ${row.check}`),
      `targets: priority p99 ≤ ${benchTargets.priorityP99Seconds} s; fairness p99 ≤ ${benchTargets.fairnessP99Seconds} s`,
      "Kannel: timed from sendsms's 202 to its delivery report of the carrier's answer; it has no means to keep one sender from starving another, so fairness has no Kannel figure",
    ],
  };
  return { scenario: "delivery-control", tables: [table], data: { rows } };
}
