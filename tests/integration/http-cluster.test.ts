// HTTP_PROCESSES=2 as a real server on the engine under test: a cluster primary (migrations,
// dispatcher, SMSC simulator) and two HTTP workers on one port. Concurrent sends and reads over many
// connections, /metrics merged across the three processes, a SIGKILLed worker replaced, SQLite
// checkpointed by the primary alone, SIGTERM with sends in flight, and a primary that gives up when
// no worker can start. The primary and its workers run the built JavaScript (dist/) with plain node.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DIST_DIR } from "@/scripts/build-server";
import { callApi, seedAccount, type ApiCall, type SeededAccount } from "../helpers/api-test-server";
import { waitFor } from "../helpers/delivery";
import { useTestDatabase } from "../helpers/test-database";
import { startServerProcess, type ServerProcess } from "../helpers/server-process";

const METRICS_TOKEN = "metrics-token-for-cluster-tests";
const ECONET = 350n;
const OPENING_BALANCE = 1_000_000n;
const CONCURRENT = 200;

const database = useTestDatabase();
let server: ServerProcess;
let account: SeededAccount;
let recipientSeed = 0;

beforeAll(async () => {
  server = await startServerProcess({
    databaseUrl: database.current().url,
    dataDir: database.current().dataDir,
    env: {
      HTTP_PROCESSES: "2",
      // Debug: the test reads which processes checkpoint SQLite.
      LOG_LEVEL: "debug",
      METRICS_TOKEN,
      RATE_LIMIT_PER_SECOND: "100000",
      RUN_DISPATCHER: "true",
      SMSC_SIMULATOR: "on",
      SMSC_SIMULATOR_DLR_DELAY_MS: "50",
    },
  });
  await waitFor(
    async () => listeningWorkers().length >= 2 && logLines().some((line) => line.msg === "tumira listening"),
    "both HTTP workers to listen",
  );
  account = await seedAccount({ name: "Cluster", balance: OPENING_BALANCE, senders: ["CLUSTER"] });
});

afterAll(async () => {
  await server?.kill();
});

type LogLine = { msg: string; worker?: number; pid?: number };

function logLines(): LogLine[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

/** Workers as the primary announced them, oldest first. */
function listeningWorkers(): { worker: number; pid: number }[] {
  return logLines()
    .filter((line) => line.msg === "http worker listening")
    .map((line) => ({ worker: line.worker!, pid: line.pid! }));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** What a worker was started with: node's flags, then the script. */
function commandLine(pid: number): string[] {
  return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
}

/** The primary had no node flags: a worker has the small semi-spaces only, on the built worker. */
function expectBuiltWorker(pid: number): void {
  const [, ...argv] = commandLine(pid);
  expect(argv).toEqual(["--max-semi-space-size=4", path.join(DIST_DIR, "http-worker.js"), "--api-only"]);
}

/** A single send to a fresh Econet number (never one of the simulator's failure numbers, 0001-0008). */
function sendOne(): Promise<ApiCall> {
  const to = `+26377${3_001_000 + recipientSeed++}`;
  return callApi(server.url, "POST", "/api/v1/sms", { token: account.token, body: { to, message: "cluster", from: "CLUSTER" } });
}

async function readMetrics(): Promise<string> {
  const call = await callApi(server.url, "GET", "/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(call.status).toBe(200);
  return call.text;
}

/** Sum of a metric's samples whose labels include every given label. */
function metricSum(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => wanted.every((label) => line.includes(label)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
}

async function expectLedgerMatchesBalance(acceptedIds: string[]): Promise<void> {
  const stored = await db().account.findUniqueOrThrow({ where: { id: account.accountId } });
  const ledger = await db().ledgerEntry.findMany({ where: { accountId: account.accountId } });
  expect(ledger.reduce((sum, entry) => sum + entry.amount, 0n)).toBe(stored.balance);
  const heldIds = new Set(ledger.filter((entry) => entry.kind === "hold").map((entry) => entry.messageId));
  for (const id of acceptedIds) expect(heldIds.has(id)).toBe(true);
  const committed = await db().message.findMany({ where: { id: { in: acceptedIds } }, select: { id: true } });
  expect(committed).toHaveLength(acceptedIds.length);
}

describe("HTTP_PROCESSES=2", () => {
  let acceptedIds: string[] = [];

  it("runs two HTTP workers besides the primary, which serves no HTTP itself", () => {
    const workers = listeningWorkers();
    expect(workers).toHaveLength(2);
    expect(new Set(workers.map((worker) => worker.pid)).size).toBe(2);
    expect(workers.map((worker) => worker.pid)).not.toContain(server.child.pid);
    expect(workers.every((worker) => isAlive(worker.pid))).toBe(true);
    expect(logLines().find((line) => line.msg === "tumira listening")).toMatchObject({ processes: 2 });
  });

  it("runs the primary and the workers as built JavaScript with plain node", () => {
    expect(commandLine(server.child.pid!).slice(1)).toEqual([path.join(DIST_DIR, "server.js"), "--api-only"]);
    for (const worker of listeningWorkers()) expectBuiltWorker(worker.pid);
  });

  it(`accepts ${CONCURRENT} concurrent sends over as many connections: every 202 committed and held, balance = ledger`, async () => {
    const calls = await Promise.all(Array.from({ length: CONCURRENT }, sendOne));
    expect(calls.map((call) => call.status)).toEqual(Array(CONCURRENT).fill(202));
    acceptedIds = calls.map((call) => call.body.id as string);
    expect(new Set(acceptedIds).size).toBe(CONCURRENT);
    await expectLedgerMatchesBalance(acceptedIds);
    const stored = await db().account.findUniqueOrThrow({ where: { id: account.accountId } });
    expect(stored.balance).toBe(OPENING_BALANCE - BigInt(CONCURRENT) * ECONET);
    expect(await db().message.count({ where: { accountId: account.accountId } })).toBe(CONCURRENT);
  });

  it("reads every message back concurrently", async () => {
    const reads = await Promise.all(acceptedIds.map((id) => callApi(server.url, "GET", `/api/v1/sms/${id}`, { token: account.token })));
    expect(reads.map((read) => read.status)).toEqual(Array(acceptedIds.length).fill(200));
    expect(reads.map((read) => read.body.data.id)).toEqual(acceptedIds);
  });

  it("answers /metrics from any worker with the counts of every process, the primary's dispatcher included", async () => {
    const text = await readMetrics();
    expect(metricSum(text, "tumira_http_requests_total", { route: "/api/v1/sms", method: "POST", status: "202" })).toBe(CONCURRENT);
    expect(metricSum(text, "tumira_http_requests_total", { route: "/api/v1/sms/:id", method: "GET", status: "200" })).toBe(CONCURRENT);
    expect(metricSum(text, "tumira_http_request_duration_seconds_count", { route: "/api/v1/sms", status: "202" })).toBe(CONCURRENT);
    expect(metricSum(text, "tumira_messages_accepted_total")).toBe(CONCURRENT);
    // Only the primary dispatches: its registry is merged in.
    await waitFor(
      async () => metricSum(await readMetrics(), "tumira_messages_dispatched_total") === CONCURRENT,
      "every message to be counted as dispatched",
    );
  });

  it("replaces a SIGKILLed worker and keeps answering", async () => {
    const [victim, survivor] = listeningWorkers();
    process.kill(victim.pid, "SIGKILL");
    const replacement = await waitFor(
      async () => listeningWorkers().find((worker) => worker.pid !== victim.pid && worker.pid !== survivor.pid),
      "a replacement worker to listen",
    );
    expect(logLines().find((line) => line.msg === "http worker died; replacing it")).toMatchObject({
      worker: victim.worker,
      pid: victim.pid,
    });
    expect(isAlive(victim.pid)).toBe(false);
    expect(isAlive(survivor.pid) && isAlive(replacement.pid)).toBe(true);
    expectBuiltWorker(replacement.pid);

    const health = await Promise.all(Array.from({ length: 40 }, () => callApi(server.url, "GET", "/api/health")));
    expect(health.map((call) => call.status)).toEqual(Array(40).fill(200));
    const sends = await Promise.all(Array.from({ length: 40 }, sendOne));
    expect(sends.map((call) => call.status)).toEqual(Array(40).fill(202));
    await expectLedgerMatchesBalance(sends.map((call) => call.body.id as string));
  });

  it("checkpoints SQLite on one thread, the primary's, none in the workers (the replacement included)", () => {
    const checkpointers = logLines().filter((line) => line.msg === "SQLite checkpoints run on a thread of this process");
    if (database.current().url.startsWith("file:")) {
      expect(checkpointers).toHaveLength(1);
      expect(checkpointers[0].worker).toBeUndefined();
    } else {
      expect(checkpointers).toEqual([]);
    }
  });

  it("keeps one balance exact when both workers' group commits race for it: 120 × 202, 80 × 422", async () => {
    // On PostgreSQL a batch holds the account row lock only from its hold to COMMIT; a batch whose
    // unlocked balance read went stale runs again under FOR UPDATE (lib/messages/commit-sends.ts).
    // Numbers end in 9: a simulator failure (0001-0008) would refund and make room for a 121st.
    const race = await seedAccount({ name: "Cluster race", balance: 120n * ECONET, senders: ["RACE"] });
    const calls = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, index) =>
        callApi(server.url, "POST", "/api/v1/sms", {
          token: race.token,
          body: { to: `+26377${3_200_009 + index * 10}`, message: "race", from: "RACE" },
        }),
      ),
    );
    const accepted = calls.filter((call) => call.status === 202);
    expect(accepted).toHaveLength(120);
    expect(calls.filter((call) => call.status === 422)).toHaveLength(80);
    const stored = await db().account.findUniqueOrThrow({ where: { id: race.accountId } });
    expect(stored.balance).toBe(0n);
    const ledger = await db().ledgerEntry.findMany({ where: { accountId: race.accountId } });
    expect(ledger.reduce((sum, entry) => sum + entry.amount, 0n)).toBe(0n);
    expect(ledger.every((entry) => entry.balanceAfter >= 0n)).toBe(true);
    expect(new Set(ledger.filter((entry) => entry.kind === "hold").map((entry) => entry.messageId))).toEqual(
      new Set(accepted.map((call) => call.body.id as string)),
    );
    expect(await db().message.count({ where: { accountId: race.accountId } })).toBe(120);
  });

  it("stops on SIGTERM with sends in flight: exit 0, every 202 committed, workers gone", async () => {
    const workers = listeningWorkers().map((worker) => worker.pid);
    const inFlight = Array.from({ length: 100 }, sendOne);
    await Promise.race(inFlight);
    const code = await server.stop();
    expect(code).toBe(0);
    const settled = await Promise.allSettled(inFlight);
    const accepted = settled.flatMap((result) =>
      result.status === "fulfilled" && result.value.status === 202 ? [result.value.body.id as string] : [],
    );
    expect(accepted.length).toBeGreaterThan(0);
    // Requests refused at the door fail to connect; none may be answered with anything but a 202.
    expect(settled.every((result) => result.status === "rejected" || result.value.status === 202)).toBe(true);
    await expectLedgerMatchesBalance(accepted);
    expect(workers.some(isAlive)).toBe(false);
    expect(logLines().filter((line) => line.msg === "shutdown complete" && line.worker === undefined)).toHaveLength(1);
  });
});

describe("HTTP_PROCESSES=2 when no worker can start", () => {
  it("gives up and exits 1 instead of restarting workers forever", async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const doomed = await startServerProcess({
        databaseUrl: database.current().url,
        dataDir: database.current().dataDir,
        readyPath: null,
        env: { HTTP_PROCESSES: "2", LOG_LEVEL: "info", PORT: String(port), RUN_DISPATCHER: "false", SMSC_SIMULATOR: "off" },
      });
      const [code] = doomed.child.exitCode === null ? await once(doomed.child, "exit") : [doomed.child.exitCode];
      expect(code).toBe(1);
      expect(doomed.output()).toContain("EADDRINUSE");
      expect(doomed.output()).toContain("HTTP workers in a row exited before listening");
    } finally {
      taken.close();
    }
  });
});
