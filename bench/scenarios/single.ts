// Single send accept. POST /api/v1/sms at N connections against Kannel's sendsms (into
// its fake SMSC) and against GET /api/ping on the same server (the API pipeline's own ceiling).
import { benchTargets } from "../lib/targets";
import type { SingleSendRow } from "../lib/results";
import { startKannel } from "../lib/kannel";
import { formatMb, round, type Table } from "../lib/report";
import type { BenchSettings, ScenarioResult } from "../lib/settings";
import { BENCH_SENDER, BENCH_TEXT, countMessages, withFreshTumira } from "../lib/tumira";
import { measure, warmUp, type LoadResult, type LoadTarget } from "../lib/wrk";

export const SINGLE_SEND_BODY = JSON.stringify({ to: "+{msisdn}", message: BENCH_TEXT, from: BENCH_SENDER });

type Row = LoadResult & {
  kind: SingleSendRow["kind"];
  competitor: string;
  engine: string;
  peakRssMb: number | null;
  cpuMicrosPerRequest: number | null;
  /** PostgreSQL's own processes per request (null where the database runs inside the gateway's). */
  databaseCpuMicrosPerRequest: number | null;
  check: string;
};

/**
 * The gateway's own CPU time (all its processes) per request over a measured run, and the database
 * server's, when it has processes of its own.
 */
async function measureWithCpu(
  cpuSeconds: () => number,
  run: () => Promise<LoadResult>,
  databaseCpuSeconds: (() => number) | null = null,
): Promise<LoadResult & { cpuMicrosPerRequest: number; databaseCpuMicrosPerRequest: number | null }> {
  const before = cpuSeconds();
  const databaseBefore = databaseCpuSeconds?.() ?? 0;
  const result = await run();
  const perRequest = (seconds: number) => (seconds * 1e6) / result.requests;
  return {
    ...result,
    cpuMicrosPerRequest: perRequest(cpuSeconds() - before),
    databaseCpuMicrosPerRequest: databaseCpuSeconds ? perRequest(databaseCpuSeconds() - databaseBefore) : null,
  };
}

async function measureKannel(settings: BenchSettings): Promise<Row> {
  const kannel = await startKannel({ smsc: { kind: "fake" } });
  try {
    kannel.connectFakeSmsc();
    await kannel.waitUntilOnline();
    const target: LoadTarget = { label: "single/kannel sendsms", baseUrl: kannel.sendsmsUrl, path: kannel.sendsmsPath };
    await warmUp(settings, target);
    const result = await measureWithCpu(kannel.cpuSeconds, () => measure(settings, target));
    // Every accepted message should reach the fake SMSC; give the queue a moment to drain.
    const deadline = Date.now() + 30_000;
    let counters = await kannel.counters();
    while (counters.queued > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      counters = await kannel.counters();
    }
    const check = `${counters.accepted} accepted in all (warm-up included), ${counters.sentToSmsc} reached the fake SMSC`;
    return {
      ...result,
      kind: "kannel",
      competitor: "Kannel 1.4.5 GET /cgi-bin/sendsms",
      engine: "-",
      peakRssMb: kannel.peakRssMb(),
      check,
    };
  } finally {
    await kannel.stop();
  }
}

async function measureTumira(settings: BenchSettings, engine: BenchSettings["engines"][number]): Promise<Row[]> {
  return withFreshTumira(settings, engine, "single", async ({ database, account, server }) => {
    const pingTarget: LoadTarget = { label: `single/${engine} GET /api/ping`, baseUrl: server.url, path: "/api/ping" };
    await warmUp(settings, pingTarget);
    const ping = await measureWithCpu(server.cpuSeconds, () => measure(settings, pingTarget));
    const rows: Row[] = [{ ...ping, kind: "ceiling", competitor: "Tumira GET /api/ping (ceiling)", engine, peakRssMb: null, check: "" }];
    const send: LoadTarget = {
      label: `single/${engine} POST /api/v1/sms`,
      baseUrl: server.url,
      method: "POST",
      path: "/api/v1/sms",
      body: SINGLE_SEND_BODY,
      token: account.token,
    };
    await warmUp(settings, send);
    const before = await countMessages(database);
    const result = await measureWithCpu(server.cpuSeconds, () => measure(settings, send), database.serverCpuSeconds);
    const committed = (await countMessages(database)) - before;
    const accepted = result.requests - result.errorResponses;
    const check = `${accepted} answered 202, ${committed} messages committed${committed < accepted ? " (LOST MESSAGES)" : committed > accepted ? " (the rest were in flight when the load stopped)" : ""}; sum of each server process's own peak RSS ${formatMb(server.peakRssUpperBoundMb())}; peak PSS (shared pages counted once) ${formatMb(server.peakPssMb())}`;
    rows.push({ ...result, kind: "send", competitor: "Tumira POST /api/v1/sms", engine, peakRssMb: server.peakRssMb(), check });
    return rows;
  });
}

export async function runSingleScenario(settings: BenchSettings): Promise<ScenarioResult> {
  const kannel = await measureKannel(settings);
  const rows: Row[] = [kannel];
  for (const engine of settings.engines) rows.push(...(await measureTumira(settings, engine)));
  const table: Table = {
    title: `Single send accept: ${settings.connections} connections, ${settings.durationSeconds} s each`,
    columns: [
      "competitor",
      "engine",
      "requests/s",
      "p50 ms",
      "p99 ms",
      "errors",
      "× Kannel",
      "CPU µs/request",
      "database CPU µs/request",
      "peak RSS MB",
    ],
    rows: rows.map((row) => [
      row.competitor,
      row.engine,
      round(row.requestsPerSecond),
      round(row.p50Ms),
      round(row.p99Ms),
      row.errorResponses + row.socketErrors,
      round(row.requestsPerSecond / kannel.requestsPerSecond),
      row.cpuMicrosPerRequest === null ? "" : round(row.cpuMicrosPerRequest),
      row.databaseCpuMicrosPerRequest === null ? "" : round(row.databaseCpuMicrosPerRequest),
      row.peakRssMb === null ? "" : round(row.peakRssMb),
    ]),
    notes: [
      ...rows.filter((row) => row.check).map((row) => `${row.competitor} (${row.engine}): ${row.check}`),
      "CPU: the gateway's own processes; database CPU: PostgreSQL's server processes over the same run (SQLite runs inside the gateway's and is in its CPU)",
      `target: POST /api/v1/sms ≥ ${benchTargets.singleSendTimesKannel} × Kannel, p99 ≤ ${benchTargets.singleSendP99Ms} ms, zero errors, RSS ≤ ${benchTargets.serverRssMb} MB`,
    ],
  };
  return { scenario: "single", tables: [table], data: { rows } };
}
