// Several binds per carrier, over real SMPP to a simulator listening on two ports (the carrier's two
// hosts): a standby takes over when the primary is dropped and gives the traffic back once the
// primary is bound again, each message sent exactly once; when the standby in use drops too, the
// messages wait queued for the next bind, and one whose bind dropped before its answer is not
// cancellable (a carrier may have it); binds used together share the carrier's cap and are both
// used; the Carriers page's data and /metrics show each bind with its role.
import { spawn } from "node:child_process";
import readline from "node:readline";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";
import { stopBackgroundServices, type BackgroundService } from "@/lib/delivery/background-services";
import { readCarrierOverview } from "@/lib/delivery/carrier-links";
import { metrics } from "@/lib/metrics";
import { logger } from "@/lib/log";
import { SIMULATOR_PASSWORD, simulatorCarrierConfig } from "@/lib/smpp/carrier-config";
import { CarrierConnection } from "@/lib/smpp/carrier-connection";
import { cancelMessage } from "@/lib/messages/cancel-messages";
import { AppError } from "@/lib/errors";
import { useTestDatabase } from "../helpers/test-database";
import {
  carrierUrls,
  createSendingAccount,
  expectLedgerBalanced,
  LINK_TEST_TUNING,
  send,
  setEnv,
  startTestSimulator,
  waitFor,
  waitForFinal,
  type TestSimulator,
} from "../helpers/delivery";

useTestDatabase();

let simulator: TestSimulator;
let secondPort: number;
let services: BackgroundService[] = [];

const url = (operator: string, port: number, query = "") => `smpp://${operator}:${SIMULATOR_PASSWORD}@127.0.0.1:${port}${query}`;

beforeAll(async () => {
  simulator = await startTestSimulator({ dlrDelayMs: 50, secondPort: true });
  secondPort = simulator.secondPort!;
});

afterEach(async () => {
  await stopBackgroundServices(services);
  services = [];
});

afterAll(async () => {
  await simulator?.stop();
});

async function startDispatcher(env: Record<string, string>): Promise<void> {
  setEnv({ ...carrierUrls(simulator.port), ...env });
  services = await startDeliveryServices({ dispatcher: true, simulator: false }, LINK_TEST_TUNING);
}

/** Econet as a primary (the simulator's first port) and a standby (its second), 20/s each, both bound. */
async function startEconetFailover(): Promise<void> {
  await startDispatcher({
    SMPP_ECONET: `${url("econet", simulator.port, "?tps=20&window=4")},${url("econet", secondPort, "?tps=20&window=4")}`,
    SMPP_ECONET_MODE: "failover",
    SMPP_ECONET_FAILOVER_AFTER_SECONDS: "1",
    SMPP_ECONET_GIVEBACK_HOLD_SECONDS: "1",
  });
  await waitFor(async () => {
    const binds = (await carrier("econet")).binds;
    return binds.length === 2 && binds.every((bind) => bind.state === "bound");
  }, "both econet binds bound");
}

async function carrier(operator: string) {
  return (await readCarrierOverview()).find((entry) => entry.operator === operator)!;
}

async function bindOf(operator: string, role: string) {
  return (await carrier(operator)).binds.find((bind) => bind.role === role);
}

function submitsTo(recipients: string[]) {
  return simulator.submits.filter((submit) => recipients.includes(`+${submit.destination}`));
}

/** Each recipient accepted exactly once at the simulator. */
function expectEachAcceptedOnce(recipients: string[]): void {
  const accepted = submitsTo(recipients).filter((submit) => submit.messageId !== null);
  expect(accepted.map((submit) => `+${submit.destination}`).sort()).toEqual([...recipients].sort());
}

describe("several binds per carrier", () => {
  it("fails over to the standby when the primary is dropped, sends each message once, and gives back when the primary returns", async () => {
    await startEconetFailover();
    expect(await bindOf("econet", "primary")).toMatchObject({ active: true, bind: `127.0.0.1:${simulator.port}` });
    expect(await bindOf("econet", "standby")).toMatchObject({ active: false, bind: `127.0.0.1:${secondPort}` });

    const accountId = await createSendingAccount();
    // At 20/s these take about three seconds: the drop lands with most of them still queued.
    const recipients = Array.from({ length: 60 }, (_, index) => `+2637716${String(index).padStart(4, "0")}9`);
    const ids = await send(accountId, recipients, "Across the failover");
    await waitFor(async () => submitsTo(recipients).length >= 5, "the first submits over the primary");
    expect(simulator.dropBinds("econet", { port: simulator.port, refuseForMs: 3_000 })).toBe(1);

    await waitFor(async () => (await bindOf("econet", "primary"))?.state === "down", "the primary reported down");
    await waitFor(async () => (await bindOf("econet", "standby"))?.active, "the standby in use");
    const downMetric = await metrics().carrierBindState.get();
    expect(
      downMetric.values.find(
        (value) => value.labels.operator === "econet" && value.labels.role === "primary" && value.labels.state === "down",
      )?.value,
    ).toBe(1);

    const sent = await waitForFinal(ids, { delivered: true });
    expect(sent.map((message) => [message.status, message.attempts])).toEqual(recipients.map(() => ["success", 1]));
    expectEachAcceptedOnce(recipients);
    const byPort = (port: number) => submitsTo(recipients).filter((submit) => submit.port === port).length;
    expect(byPort(simulator.port)).toBeGreaterThan(0);
    expect(byPort(secondPort)).toBeGreaterThan(0);
    await expectLedgerBalanced(accountId);

    // The primary binds again once the refusal ends and, after its hold, takes the traffic back.
    await waitFor(async () => (await bindOf("econet", "primary"))?.active, "the primary in use again", 15_000);
    expect(await bindOf("econet", "primary")).toMatchObject({ state: "bound" });
    expect(await bindOf("econet", "standby")).toMatchObject({ state: "bound", active: false });
    const after = ["+263771700019", "+263771700029", "+263771700039"];
    await waitForFinal(await send(accountId, after, "After the giveback"));
    expectEachAcceptedOnce(after);
    expect(submitsTo(after).every((submit) => submit.port === simulator.port)).toBe(true);
    const active = await metrics().carrierBindActive.get();
    const activeOf = (role: string) =>
      active.values.find((value) => value.labels.operator === "econet" && value.labels.role === role)?.value;
    expect([activeOf("primary"), activeOf("standby")]).toEqual([1, 0]);
  });

  it("keeps the messages queued while the standby in use is dropped too, and sends each once when a bind returns", async () => {
    await startEconetFailover();

    const accountId = await createSendingAccount();
    const recipients = Array.from({ length: 80 }, (_, index) => `+2637718${String(index).padStart(4, "0")}9`);
    const ids = await send(accountId, recipients, "Through both outages");
    await waitFor(async () => submitsTo(recipients).length >= 5, "the first submits over the primary");
    expect(simulator.dropBinds("econet", { port: simulator.port, refuseForMs: 8_000 })).toBe(1);
    await waitFor(async () => (await bindOf("econet", "standby"))?.active, "the standby in use");
    await waitFor(async () => submitsTo(recipients).some((submit) => submit.port === secondPort), "a submit over the standby");

    // The standby goes too while most messages are still queued: they wait, none fails or spends an attempt.
    expect(simulator.dropBinds("econet", { port: secondPort, refuseForMs: 2_000 })).toBe(1);
    await waitFor(async () => (await bindOf("econet", "standby"))?.state === "down", "the standby reported down");
    const waiting = await db().message.findMany({ where: { id: { in: ids } }, select: { status: true, attempts: true } });
    expect(waiting.filter((message) => message.status === "failed")).toEqual([]);
    expect(waiting.filter((message) => message.status === "enqueued").length).toBeGreaterThan(0);

    const sent = await waitForFinal(ids, { delivered: true });
    expect(sent.map((message) => [message.status, message.attempts])).toEqual(recipients.map(() => ["success", 1]));
    expectEachAcceptedOnce(recipients);
    await expectLedgerBalanced(accountId);
  });

  it("returns a message whose bind dropped before the answer to the queue without using an attempt", async () => {
    // One a second, one at a time: the second submit waits for its second on the bind that drops.
    await startDispatcher({ SMPP_TELECEL: url("telecel", simulator.port, "?tps=1&window=1") });
    await waitFor(async () => (await carrier("telecel")).binds[0]?.state === "bound", "telecel bound");
    const accountId = await createSendingAccount();
    const recipients = ["+263733800019", "+263733800029", "+263733800039"];
    const ids = await send(accountId, recipients, "Dropped mid-window");
    // The first answered, the next claimed: it waits on the bind for its second when the bind drops.
    const statusCount = (status: string) => db().message.count({ where: { id: { in: ids }, status } });
    await waitFor(
      async () => submitsTo(recipients).length >= 1 && (await statusCount("success")) >= 1 && (await statusCount("processing")) >= 1,
      "the first submit answered and the next one claimed",
    );
    simulator.dropBinds("telecel", { refuseForMs: 1_000 });
    const sent = await waitForFinal(ids, { delivered: true });
    expect(sent.map((message) => [message.status, message.attempts])).toEqual(recipients.map(() => ["success", 1]));
    expectEachAcceptedOnce(recipients);
    // The submit that was on its way when the bind dropped went back to the queue.
    const retries = await db().messageEvent.findMany({ where: { messageId: { in: ids }, kind: "retry" } });
    expect(retries.some((event) => event.detail.startsWith("no answer: connection to the carrier lost"))).toBe(true);
    await expectLedgerBalanced(accountId);
  });

  it("keeps a message whose bind dropped before the answer out of a cancel: a carrier may have it, so it is sent, not refunded", async () => {
    await startDispatcher({ SMPP_TELECEL: url("telecel", simulator.port, "?tps=1&window=1") });
    await waitFor(async () => (await carrier("telecel")).binds[0]?.state === "bound", "telecel bound");
    const accountId = await createSendingAccount();
    const recipients = ["+263733800049", "+263733800059"];
    const ids = await send(accountId, recipients, "Dropped, then cancelled");
    const statusCount = (status: string) => db().message.count({ where: { id: { in: ids }, status } });
    await waitFor(
      async () => submitsTo(recipients).length >= 1 && (await statusCount("success")) >= 1 && (await statusCount("processing")) >= 1,
      "the first submit answered and the next one claimed",
    );
    // Long enough to find the dropped one back in the queue before a bind takes it again.
    simulator.dropBinds("telecel", { refuseForMs: 3_000 });
    const dropped = await waitFor(
      async () => db().message.findFirst({ where: { id: { in: ids }, status: "enqueued", mayBeAtCarrier: true } }),
      "the unanswered message back in the queue",
    );
    const refusal = await cancelMessage({ accountId, test: false }, dropped.id).catch((error: unknown) => error);
    expect((refusal as AppError).code).toBe("CONFLICT");

    const sent = await waitForFinal(ids, { delivered: true });
    expect(sent.map((message) => message.status)).toEqual(["success", "success"]);
    expect(await db().ledgerEntry.count({ where: { messageId: { in: ids }, kind: "release" } })).toBe(0);
    await expectLedgerBalanced(accountId);
  });

  it("shares the carrier's cap across binds used together, uses both, and shows the receipts still awaited", async () => {
    await startDispatcher({
      SMPP_NETONE: `${url("netone", simulator.port, "?tps=10&window=3")},${url("netone", secondPort, "?window=3")}`,
    });
    await waitFor(async () => {
      const binds = (await carrier("netone")).binds;
      return binds.length === 2 && binds.every((bind) => bind.state === "bound" && bind.active);
    }, "both netone binds bound and in use");
    const overview = await carrier("netone");
    expect(overview.binds.map((bind) => [bind.role, bind.tps])).toEqual([
      ["shared", 10],
      ["shared", 10],
    ]);
    expect(overview.tps).toBe(10);
    expect(overview.windowSize).toBe(6);

    const accountId = await createSendingAccount();
    // Never receipted (…0003): each stays awaited.
    const recipients = Array.from({ length: 30 }, (_, index) => `+263712${String(index).padStart(2, "0")}0003`);
    const ids = await send(accountId, recipients, "Two binds, one cap");
    await waitForFinal(ids);
    expectEachAcceptedOnce(recipients);
    const submits = submitsTo(recipients);
    expect(submits.filter((submit) => submit.port === simulator.port).length).toBeGreaterThan(0);
    expect(submits.filter((submit) => submit.port === secondPort).length).toBeGreaterThan(0);
    // At most the carrier's 10 over any second: the 11th submit after any one comes a second later
    // (less a margin for this process's own scheduling; two unshared caps would send 20 in that second).
    const times = submits.map((submit) => submit.at).sort((a, b) => a - b);
    for (let index = 10; index < times.length; index++) expect(times[index] - times[index - 10]).toBeGreaterThanOrEqual(900);

    await waitFor(async () => (await carrier("netone")).lastHour.receiptsAwaited === 30, "30 receipts awaited");
    await waitFor(
      async () => (await metrics().carrierReceiptsAwaited.get()).values.find((value) => value.labels.operator === "netone")?.value === 30,
      "tumira_carrier_receipts_awaited 30",
    );
  });

  it("npm run smsc listens on a second port and drops a bind there on a typed command, refusing re-binds for a while", async () => {
    const smsc = spawn(process.execPath, ["--import", "tsx", "scripts/smsc.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        SMSC_SIMULATOR_PORT: "0",
        SMSC_SIMULATOR_SECOND_PORT: "0",
        LOG_LEVEL: "warn",
        HOST: "127.0.0.1",
      },
      stdio: ["pipe", "pipe", "inherit"],
    });
    const lines = readline.createInterface({ input: smsc.stdout! });
    const output: string[] = [];
    lines.on("line", (line) => output.push(line));
    const connection = (port: number) =>
      new CarrierConnection(simulatorCarrierConfig("netone", port, 10), {
        onReceipt: async () => undefined,
        logger,
        reconnectMinMs: 50,
        reconnectMaxMs: 100,
      });
    let first: CarrierConnection | undefined;
    let second: CarrierConnection | undefined;
    try {
      const [, port, otherPort] = (await waitFor(
        async () => output.map((line) => line.match(/^SMSC simulator on ports (\d+) and (\d+)\./)).find(Boolean),
        "the simulator's two ports",
      ))!.map(Number);
      first = connection(port);
      second = connection(otherPort);
      first.start();
      second.start();
      await waitFor(async () => first!.isBound && second!.isBound, "a bind on each port");

      smsc.stdin!.write(`drop netone ${otherPort} 2\n`);
      await waitFor(
        async () => output.includes(`Dropped 1 bind(s) of netone on port ${otherPort}; refusing new ones for 2 s.`),
        "the drop",
      );
      await waitFor(async () => !second!.isBound, "the second port's bind dropped");
      // Refused for two seconds while it retries every 50-100 ms; the first port's bind is untouched.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(second.isBound).toBe(false);
      expect(first.isBound).toBe(true);
      await waitFor(async () => second!.isBound, "bound again once the refusal ended");
    } finally {
      await first?.stop();
      await second?.stop();
      smsc.kill("SIGTERM");
    }
  });
});
