// Worker processes (`npm run worker`): two on one PostgreSQL share the queue without ever
// submitting a message twice; a worker stopped with SIGTERM exits 0 leaving no message claimed; a
// worker's own HTTP answers its health check and metrics only; `npm run worker` without NODE_ENV runs
// as production, as `npm start` does; a worker whose APP_SECRET is not the API's says so at start
// and on every webhook attempt.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { STATUS } from "@/lib/smpp/command-status";
import { testDatabaseKind, useTestDatabase } from "../helpers/test-database";
import { freePort, startServerProcess, type ServerProcess } from "../helpers/server-process";
import {
  carrierUrls,
  createSendingAccount,
  expectLedgerBalanced,
  send,
  startTestSimulator,
  waitFor,
  waitForFinal,
  type TestSimulator,
} from "../helpers/delivery";
import { startWebhookReceiver } from "../helpers/webhook-receiver";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";

const database = useTestDatabase();
let simulator: TestSimulator;
const workers: ServerProcess[] = [];

beforeAll(async () => {
  simulator = await startTestSimulator({ tps: 1000, dlrDelayMs: 100 });
});

afterAll(async () => {
  for (const worker of workers) await worker.kill();
  await simulator?.stop();
});

async function startWorker(env: Record<string, string> = {}): Promise<ServerProcess> {
  const worker = await startServerProcess({
    databaseUrl: database.current().url,
    dataDir: database.current().dataDir,
    entry: "worker",
    args: [],
    readyPath: null,
    env: { ...carrierUrls(simulator.port, "?tps=1000"), SMSC_SIMULATOR: "off", LOG_LEVEL: "info", ...env },
  });
  workers.push(worker);
  return worker;
}

function recipients(count: number, offset: number): string[] {
  const prefixes = ["+26377", "+26371", "+26373"];
  return Array.from({ length: count }, (_, index) => `${prefixes[index % 3]}${offset + index * 10 + 9}`);
}

/** Destination → number of submits the SMSC accepted. */
function acceptedPerDestination(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const submit of simulator.submits)
    if (submit.status === STATUS.ESME_ROK) counts.set(submit.destination, (counts.get(submit.destination) ?? 0) + 1);
  return counts;
}

/** Until the worker at `url` answers its health check. */
function waitForHealth(url: string): Promise<boolean> {
  return waitFor(
    () =>
      fetch(`${url}/api/health`).then(
        (response) => response.ok,
        () => false,
      ),
    "the worker's health check",
  );
}

describe("worker processes", () => {
  it("stops on SIGTERM with exit code 0 and no message left claimed; the next worker finishes the rest", async () => {
    const accountId = await createSendingAccount(100_000_000n, "Graceful");
    const sent = recipients(1500, 2_000_000);
    await send(accountId, sent, "Graceful stop");
    const worker = await startWorker();
    await waitFor(async () => simulator.submits.length >= 200, "dispatch to start");
    expect(await worker.stop()).toBe(0);
    expect(worker.output()).toContain("unsent claims released to the queue");
    expect(await db().message.count({ where: { accountId, status: "processing" } })).toBe(0);

    await startWorker();
    await waitForFinal({ accountId, count: sent.length }, { timeoutMs: 120_000 });
    const accepted = acceptedPerDestination();
    expect(sent.every((to) => accepted.get(to.slice(1)) === 1)).toBe(true);
    await expectLedgerBalanced(accountId);
  });

  it.skipIf(testDatabaseKind() === "sqlite")(
    "shares one PostgreSQL queue between two workers without submitting a message twice",
    async () => {
      for (const worker of workers) await worker.stop();
      const accountId = await createSendingAccount(100_000_000n, "Two workers");
      const sent = recipients(2000, 4_000_000);
      const sessionsBefore = new Set(simulator.submits.map((submit) => submit.sessionNumber));
      await Promise.all([startWorker(), startWorker()]);
      await send(accountId, sent, "Two workers");
      await waitForFinal({ accountId, count: sent.length }, { timeoutMs: 120_000 });
      const accepted = acceptedPerDestination();
      expect(sent.every((to) => accepted.get(to.slice(1)) === 1)).toBe(true);
      // Both workers took part: each binds once per carrier, so more than three new binds sent messages.
      const ours = new Set(sent.map((to) => to.slice(1)));
      const sessions = new Set(simulator.submits.filter((submit) => ours.has(submit.destination)).map((submit) => submit.sessionNumber));
      expect([...sessions].every((session) => !sessionsBefore.has(session))).toBe(true);
      expect(sessions.size).toBeGreaterThan(3);
      await expectLedgerBalanced(accountId);
    },
  );

  it("answers its health check and its own metrics on WORKER_HTTP_PORT, and nothing else", async () => {
    for (const worker of workers) await worker.stop();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    await startWorker({ WORKER_HTTP_PORT: String(port) });
    await waitForHealth(url);
    const accountId = await createSendingAccount(100_000_000n, "Scraped");
    await send(accountId, recipients(30, 6_000_000), "Scraped");
    await waitForFinal({ accountId, count: 30 });

    const scraped = await fetch(`${url}/metrics`);
    expect(scraped.status).toBe(200);
    const dispatched = /^tumira_messages_dispatched_total\{operator="econet"\} (\d+)$/m.exec(await scraped.text());
    expect(Number(dispatched?.[1])).toBeGreaterThanOrEqual(10);
    const elsewhere = await fetch(`${url}/api/v1/sms`);
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ status: "error", error: { code: "NOT_FOUND" } });
  });

  it("runs as production under npm run worker without NODE_ENV: metrics need a token, a webhook to a loopback address is refused", async () => {
    for (const worker of workers) await worker.stop();
    const receiver = await startWebhookReceiver();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const worker = await startServerProcess({
      databaseUrl: database.current().url,
      dataDir: database.current().dataDir,
      script: "scripts/launch.cjs",
      args: ["worker"],
      readyPath: null,
      env: {
        ...carrierUrls(simulator.port, "?tps=1000"),
        NODE_ENV: undefined,
        METRICS_TOKEN: undefined,
        WEBHOOK_ALLOW_PRIVATE: undefined,
        WORKER_HTTP_PORT: String(port),
      },
    });
    workers.push(worker);
    try {
      await waitForHealth(url);
      expect((await fetch(`${url}/metrics`)).status).toBe(403);

      // Accepted where loopback webhooks are allowed (this test process), posted by the worker.
      const accountId = await createSendingAccount(100_000_000n, "Production worker");
      const [id] = await send(accountId, ["+263771234569"], "Production worker", { webhookUrl: `${receiver.base}/hook` });
      await waitForFinal([id]);
      const delivery = await waitFor(
        () => db().webhookDelivery.findFirst({ where: { messageId: id, status: { not: "pending" } } }),
        "the webhook delivery to be settled",
      );
      expect(delivery.status).toBe("abandoned");
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.stop();
    }
  });

  it("names APP_SECRET when a worker cannot read an endpoint's signing secret encrypted under another one", async () => {
    for (const worker of workers) await worker.stop();
    const receiver = await startWebhookReceiver();
    try {
      const accountId = await createSendingAccount(100_000_000n, "Other secret");
      await createWebhookEndpoint({ accountId, url: `${receiver.base}/status`, events: ["message.status"], actor: "test" });
      const worker = await startWorker({ APP_SECRET: "a-different-app-secret-than-the-api-process-has" });
      await waitFor(
        async () => /APP_SECRET cannot decrypt the stored webhook signing secrets/.test(worker.output()),
        "the worker's warning at start",
      );
      const [id] = await send(accountId, ["+263771234579"], "Other secret");
      await waitForFinal([id]);
      const delivery = await waitFor(
        () => db().webhookDelivery.findFirst({ where: { accountId, endpointId: { not: null }, attempts: { gt: 0 } } }),
        "an attempt at the endpoint's delivery",
      );
      expect(delivery.status).toBe("pending");
      expect(delivery.lastError).toMatch(/APP_SECRET/);
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.stop();
    }
  });
});
