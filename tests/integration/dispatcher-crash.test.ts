// Crash safety: a worker process is SIGKILLed in the middle of a 5,000-message dispatch and a new
// one is started. Every message must end final (here: success and delivered), the SMSC must have
// seen each at least once, nothing is held twice or refunded, and the ledger balances. SMPP is
// at-least-once: a message submitted but not yet recorded when the worker died is submitted again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { useTestDatabase } from "../helpers/test-database";
import { startServerProcess, type ServerProcess } from "../helpers/server-process";
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

const database = useTestDatabase();
const TOTAL = 5000;

let simulator: TestSimulator;
const workers: ServerProcess[] = [];

beforeAll(async () => {
  simulator = await startTestSimulator({ tps: 1000, dlrDelayMs: 200 });
});

afterAll(async () => {
  for (const worker of workers) await worker.kill();
  await simulator?.stop();
});

function startWorker(): Promise<ServerProcess> {
  return startServerProcess({
    databaseUrl: database.current().url,
    dataDir: database.current().dataDir,
    entry: "worker",
    args: [],
    readyPath: null,
    env: { ...carrierUrls(simulator.port, "?tps=1000"), SMSC_SIMULATOR: "off", DELIVERY_LEASE_SECONDS: "5", LOG_LEVEL: "warn" },
  }).then((worker) => {
    workers.push(worker);
    return worker;
  });
}

describe("dispatcher crash", () => {
  it("loses nothing and charges nothing twice when the worker is killed mid-dispatch", { timeout: 180_000 }, async () => {
    const balance = 100_000_000n;
    const accountId = await createSendingAccount(balance);
    const prefixes = ["+26377", "+26371", "+26373"];
    // Ending in 9: none of the simulator's magic numbers, so every message should be delivered.
    const recipients = Array.from({ length: TOTAL }, (_, index) => `${prefixes[index % 3]}${1_000_000 + index * 10 + 9}`);
    await send(accountId, recipients, "Crash test");

    const first = await startWorker();
    await waitFor(async () => simulator.submits.length >= TOTAL / 4, "a quarter of the messages submitted", 60_000);
    await first.kill();
    const submittedBeforeKill = new Set(simulator.submits.map((submit) => submit.destination)).size;
    const leasedAtKill = await db().message.count({ where: { accountId, status: "processing" } });
    expect(submittedBeforeKill).toBeLessThan(TOTAL);

    await startWorker();
    const messages = await waitForFinal({ accountId, count: TOTAL }, { delivered: true, timeoutMs: 120_000 });
    expect(messages.every((message) => message.status === "success" && message.deliveredAt && message.operatorResponse === "DELIVRD")).toBe(
      true,
    );

    const seen = new Map<string, number>();
    for (const submit of simulator.submits) if (submit.messageId) seen.set(submit.destination, (seen.get(submit.destination) ?? 0) + 1);
    expect(recipients.every((recipient) => (seen.get(recipient.slice(1)) ?? 0) >= 1)).toBe(true);
    const twice = [...seen.values()].filter((count) => count > 1).length;
    // Only a claim the dead worker held unrecorded can have gone out twice.
    expect(twice).toBeLessThanOrEqual(leasedAtKill);
    console.log(
      `crash test (${database.current().kind}): ${submittedBeforeKill} submitted before SIGKILL, ${leasedAtKill} leased unrecorded at the kill, ${twice} submitted twice`,
    );

    const ledger = await db().ledgerEntry.groupBy({ by: ["kind"], where: { accountId, messageId: { not: null } }, _count: true });
    expect(ledger).toEqual([{ kind: "hold", _count: TOTAL }]);
    await expectLedgerBalanced(accountId);
  });
});
