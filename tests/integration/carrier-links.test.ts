// Carrier links as the operator sees and steers them, over real SMPP to a simulator the test
// controls: a carrier with no bind keeps its messages queued without consuming attempts, a paused
// carrier keeps them queued across a dispatcher restart, and each bind's state is reported.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";
import { stopBackgroundServices, type BackgroundService } from "@/lib/delivery/background-services";
import { readCarrierOverview, writeLinkReports, type LinkReport } from "@/lib/delivery/carrier-links";
import { pauseCarrier, resumeCarrier } from "@/lib/carriers/carrier-pauses";
import { metrics } from "@/lib/metrics";
import { claimMessages } from "@/lib/delivery/claim-messages";
import { recordDispatchOutcomes } from "@/lib/delivery/record-dispatch-outcomes";
import { DEFAULT_TPS } from "@/lib/smpp/carrier-config";
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
let services: BackgroundService[] = [];

async function startDispatcher(): Promise<void> {
  services = await startDeliveryServices({ dispatcher: true, simulator: false }, LINK_TEST_TUNING);
}

async function stopDispatcher(): Promise<void> {
  await stopBackgroundServices(services);
  services = [];
}

beforeAll(async () => {
  simulator = await startTestSimulator({ dlrDelayMs: 50 });
  setEnv({ ...carrierUrls(simulator.port), SMSC_SIMULATOR_DLR_DELAY_MS: "50" });
});

afterAll(async () => {
  await stopDispatcher();
  await simulator?.stop();
});

async function carrier(operator: string) {
  return (await readCarrierOverview()).find((entry) => entry.operator === operator)!;
}

function submitsTo(destinations: string[]) {
  return simulator.submits.filter((submit) => destinations.includes(`+${submit.destination}`));
}

describe("carrier links", () => {
  it("keeps a carrier's messages queued with no attempt used while it has no bind, and sends each once when it binds", async () => {
    simulator.refuseBinds("econet", true);
    await startDispatcher();
    try {
      const accountId = await createSendingAccount();
      const econet = ["+263771000019", "+263771000029", "+263771000039"];
      const ids = await send(accountId, econet, "Waiting for the bind");
      const [other] = await send(accountId, ["+263712000019"], "NetOne is up");

      await waitForFinal([other]);
      await waitFor(async () => (await carrier("econet")).binds[0]?.state === "down", "econet reported down");
      const waiting = await db().message.findMany({ where: { id: { in: ids } } });
      expect(waiting.map((message) => [message.status, message.attempts])).toEqual(econet.map(() => ["enqueued", 0]));
      expect(submitsTo(econet)).toHaveLength(0);
      expect((await carrier("econet")).queue.depth).toBe(3);

      simulator.refuseBinds("econet", false);
      const sent = await waitForFinal(ids, { delivered: true });
      expect(sent.map((message) => [message.status, message.attempts])).toEqual(econet.map(() => ["success", 1]));
      expect(
        submitsTo(econet)
          .map((submit) => `+${submit.destination}`)
          .sort(),
      ).toEqual(econet);
      await expectLedgerBalanced(accountId);
    } finally {
      await stopDispatcher();
    }
  });

  it("keeps a paused carrier's messages queued across a dispatcher restart, and sends each once on resume", async () => {
    await pauseCarrier({ operator: "netone", reason: "carrier maintenance window", actor: "test" });
    await startDispatcher();
    try {
      const accountId = await createSendingAccount();
      const netone = ["+263712100019", "+263712100029"];
      const ids = await send(accountId, netone, "Held while paused");
      const [first] = await send(accountId, ["+263771100019"], "Econet is not paused");
      await waitForFinal([first]);
      await waitFor(async () => (await carrier("netone")).binds[0]?.state === "paused", "netone reported paused");

      await stopDispatcher();
      await startDispatcher();
      const [second] = await send(accountId, ["+263771100029"], "Econet after the restart");
      await waitForFinal([second]);
      const overview = await carrier("netone");
      expect(overview.paused).toMatchObject({ reason: "carrier maintenance window", actor: "test" });
      await waitFor(async () => (await carrier("netone")).binds[0]?.state === "paused", "netone reported paused after the restart");
      expect((await carrier("netone")).binds[0].since).toEqual(overview.paused!.pausedAt);
      expect(overview.queue.depth).toBe(2);
      const held = await db().message.findMany({ where: { id: { in: ids } } });
      expect(held.map((message) => [message.status, message.attempts])).toEqual(netone.map(() => ["enqueued", 0]));
      expect(submitsTo(netone)).toHaveLength(0);
      // Held, not charged again: one hold per message and no release.
      expect(await db().ledgerEntry.count({ where: { messageId: { in: ids } } })).toBe(2);

      await resumeCarrier({ operator: "netone", actor: "test" });
      const sent = await waitForFinal(ids, { delivered: true });
      expect(sent.map((message) => [message.status, message.attempts])).toEqual(netone.map(() => ["success", 1]));
      expect(
        submitsTo(netone)
          .map((submit) => `+${submit.destination}`)
          .sort(),
      ).toEqual(netone);
      expect((await carrier("netone")).paused).toBeNull();
      await expectLedgerBalanced(accountId);
    } finally {
      await stopDispatcher();
    }
  });

  it("reports a dropped bind down, then bound again, in the overview and in /metrics", async () => {
    const bindUp = async () => (await metrics().carrierBindUp.get()).values.find((value) => value.labels.operator === "telecel")?.value;
    const stateIs = async (state: string) =>
      (await metrics().carrierBindState.get()).values.find((value) => value.labels.operator === "telecel" && value.labels.state === state)
        ?.value === 1;
    await startDispatcher();
    try {
      await waitFor(async () => (await carrier("telecel")).binds[0]?.state === "bound", "telecel bound");
      await waitFor(async () => (await bindUp()) === 1, "tumira_carrier_bind_up 1");
      const boundBind = (await carrier("telecel")).binds[0];
      expect(boundBind.host).toBe(`127.0.0.1:${simulator.port}`);
      expect(boundBind.windowSize).toBeGreaterThan(0);

      simulator.refuseBinds("telecel", true);
      expect(simulator.dropBinds("telecel")).toBeGreaterThan(0);
      await waitFor(async () => (await carrier("telecel")).binds[0]?.state === "down", "telecel reported down");
      await waitFor(async () => (await bindUp()) === 0 && (await stateIs("down")), "tumira_carrier_bind_state down");

      simulator.refuseBinds("telecel", false);
      await waitFor(async () => (await carrier("telecel")).binds[0]?.state === "bound", "telecel bound again");
      await waitFor(async () => (await bindUp()) === 1 && (await stateIs("bound")), "tumira_carrier_bind_state bound");
      const accountId = await createSendingAccount();
      // Delivered; throttled once, then delivered; refused for good.
      const ids = await send(accountId, ["+263733200019", "+263733200004", "+263733200005"], "After the drop");
      await waitForFinal(ids);
      await waitFor(async () => {
        const { lastHour } = await carrier("telecel");
        return lastHour.sent + lastHour.errors >= 3;
      }, "the three answers counted in the last hour");
      const telecel = await carrier("telecel");
      expect(telecel.sentLastMinute).toBe(2);
      expect(telecel.lastHour).toMatchObject({ sent: 2, throttled: 1, errors: 1 });
      expect(telecel.lastHour.submitP50Ms).toBeGreaterThan(0);
      expect(telecel.minutes.reduce((sum, stats) => sum + stats.sent, 0)).toBe(2);
      const text = await metrics().registry.metrics();
      expect(text).toMatch(/tumira_carrier_submit_latency_seconds_count\{operator="telecel"\} 2/);
      expect(text).toMatch(/tumira_carrier_throttled_total\{operator="telecel"\} 1/);
      expect(text).toMatch(/tumira_carrier_refused_total\{operator="telecel"\} 1/);

      // Both delivered messages' receipts, from acceptance.
      await waitFor(async () => (await carrier("telecel")).lastHour.delivered === 2, "two receipts counted in the last hour");
      expect((await carrier("telecel")).lastHour.receiptP95Ms).toBeGreaterThanOrEqual(telecel.lastHour.submitP50Ms!);
      expect(await metrics().registry.metrics()).toMatch(/tumira_carrier_receipt_latency_seconds_count\{operator="telecel"\} 2/);
    } finally {
      await stopDispatcher();
    }
  });

  it("counts queue depth and the age of the message first in line per carrier and priority in /metrics", async () => {
    await pauseCarrier({ operator: "econet", reason: "metrics", actor: "test" });
    await startDispatcher();
    try {
      const accountId = await createSendingAccount();
      const ids = await send(accountId, ["+263771300019", "+263771300029"], "Queued for the gauges");
      const [urgent] = await send(accountId, ["+263771300039"], "Queued first in line", { priority: "high" });
      const gauge = async (name: "carrierQueueDepth" | "carrierOldestQueuedSeconds", priority: string) =>
        (await metrics()[name].get()).values.find((value) => value.labels.operator === "econet" && value.labels.priority === priority)
          ?.value;
      await waitFor(
        async () => (await gauge("carrierQueueDepth", "normal")) === 2 && (await gauge("carrierQueueDepth", "high")) === 1,
        "tumira_carrier_queue_depth 2 normal, 1 high",
      );
      expect((await metrics().carrierPaused.get()).values.find((value) => value.labels.operator === "econet")?.value).toBe(1);
      const first = await db().message.findUniqueOrThrow({ where: { id: ids[0] } });
      const high = await db().message.findUniqueOrThrow({ where: { id: urgent } });
      const queue = (await carrier("econet")).queue;
      expect(queue.depth).toBe(3);
      expect(queue.byPriority.normal).toEqual({ depth: 2, oldestReceivedAt: first.receivedAt });
      expect(queue.byPriority.high).toEqual({ depth: 1, oldestReceivedAt: high.receivedAt });
      expect(queue.oldestReceivedAt).toEqual(first.receivedAt);
      const reportedAge = (await gauge("carrierOldestQueuedSeconds", "normal"))!;
      expect(reportedAge).toBeGreaterThanOrEqual(0);
      expect(reportedAge).toBeLessThanOrEqual((Date.now() - first.receivedAt.getTime()) / 1000);
      const text = await metrics().registry.metrics();
      expect(text).toMatch(/tumira_carrier_queue_depth\{operator="econet",priority="normal"\} 2/);
      expect(text).toMatch(/tumira_carrier_queue_depth\{operator="econet",priority="high"\} 1/);
    } finally {
      await resumeCarrier({ operator: "econet", actor: "test" });
      await stopDispatcher();
    }
  });

  it("shows every worker's bind, sums their windows and rates, splits the carrier's cap between them, and pauses every worker", async () => {
    await startDispatcher();
    let second: BackgroundService[] = [];
    try {
      await waitFor(async () => (await carrier("econet")).binds.length === 1, "one econet bind reported");
      const cap = (await carrier("econet")).tps;
      expect(cap).toBe(DEFAULT_TPS);
      second = await startDeliveryServices({ dispatcher: true, simulator: false }, LINK_TEST_TUNING);
      await waitFor(async () => {
        const binds = (await carrier("econet")).binds;
        return binds.length === 2 && binds.every((bind) => bind.state === "bound" && bind.tps === cap / 2);
      }, "two econet binds reported bound, each at half the cap");
      const econet = await carrier("econet");
      expect(new Set(econet.binds.map((bind) => bind.owner)).size).toBe(2);
      expect(econet.windowSize).toBe(econet.binds[0].windowSize + econet.binds[1].windowSize);
      expect(econet.tps).toBe(cap);

      // A pause reaches every worker.
      await pauseCarrier({ operator: "econet", reason: "both workers", actor: "test" });
      await waitFor(async () => {
        const binds = (await carrier("econet")).binds;
        return binds.length === 2 && binds.every((bind) => bind.state === "paused");
      }, "both econet binds reported paused");
      await resumeCarrier({ operator: "econet", actor: "test" });
      // The worker left takes up the whole cap again.
      await stopBackgroundServices(second);
      second = [];
      await waitFor(async () => {
        const binds = (await carrier("econet")).binds;
        return binds.length === 1 && binds[0].tps === cap;
      }, "the remaining econet bind at the whole cap");
    } finally {
      await stopBackgroundServices(second);
      await stopDispatcher();
    }
    // A stopped worker's binds are no longer reported.
    expect((await carrier("econet")).binds).toHaveLength(0);
  });

  it("reads a report's minutes of the last hour, each as stored or as none when it is malformed", async () => {
    const now = new Date();
    const minute = Math.floor(now.getTime() / 60_000);
    const report: LinkReport = {
      operator: "netone",
      bind: "reports.example:2775",
      role: "primary",
      active: true,
      state: "bound",
      since: now,
      nextTryAt: null,
      host: "reports.example:2775",
      windowUsed: 1,
      windowSize: 10,
      tps: 100,
      sentLastMinute: 3,
      minutes: [],
    };
    await writeLinkReports("report-reader", [report], now);
    const full = { minute, sent: 3, errors: 1, throttled: 0, latency: [3], delivered: 2, receiptLatency: [2], receipted: 2 };
    const stored = [
      full,
      { minute: minute - 1, sent: 4, errors: 0, throttled: 1, latency: [4] }, // written before receipts were counted
      { minute: minute - 2, sent: "many" }, // malformed
      { ...full, minute: minute - 90 }, // older than an hour
    ];
    await db().carrierLink.updateMany({ where: { owner: "report-reader" }, data: { minutes: JSON.stringify(stored) } });
    try {
      const [bind] = (await carrier("netone")).binds.filter((entry) => entry.owner === "report-reader");
      expect(bind).toMatchObject({ role: "primary", state: "bound", active: true, windowSize: 10, tps: 100 });
      expect(bind.minutes).toEqual([full, { ...stored[1], delivered: 0, receiptLatency: [], receipted: 0 }]);

      await db().carrierLink.updateMany({ where: { owner: "report-reader" }, data: { minutes: "not json" } });
      expect((await carrier("netone")).binds.find((entry) => entry.owner === "report-reader")!.minutes).toEqual([]);

      // A row this version cannot read fails loudly, naming the column, rather than showing a guess.
      await db().carrierLink.updateMany({ where: { owner: "report-reader" }, data: { state: "sleeping" } });
      await expect(carrier("netone")).rejects.toThrow(/column state/);
    } finally {
      await db().carrierLink.deleteMany({ where: { owner: "report-reader" } });
    }
  });

  it("puts a claimed message that never left back in the queue without counting the attempt", async () => {
    const accountId = await createSendingAccount();
    const [id] = await send(accountId, ["+263771400019"], "Claimed, then the bind went");
    const [claimed] = await claimMessages({ owner: "test-owner", operator: "econet", test: false, limit: 1, leaseMs: 60_000 });
    expect(claimed).toMatchObject({ id, attempts: 1 });
    await recordDispatchOutcomes(
      [
        {
          message: claimed,
          owner: "test-owner",
          startedAt: new Date(),
          result: { kind: "rejected", temporary: true, response: "no bind to the carrier", carrierStatus: null, notSent: true },
        },
      ],
      { maxAttempts: 1, baseDelayMs: 50, maxDelayMs: 200 },
    );
    const message = await db().message.findUniqueOrThrow({ where: { id } });
    expect(message).toMatchObject({ status: "enqueued", attempts: 0, leaseOwner: null, lastError: "no bind to the carrier" });
    const events = await db().messageEvent.findMany({ where: { messageId: id } });
    expect(events.map((event) => [event.kind, event.detail])).toEqual([["retry", "not sent: no bind to the carrier; waits for the bind"]]);
    expect(await db().ledgerEntry.count({ where: { messageId: id, kind: "release" } })).toBe(0);
  });

  it("lets messages already sent finish when a carrier is paused, and holds the rest", async () => {
    // One submit in flight at a time, two a second: a pause lands with most of the queue unsent.
    setEnv(carrierUrls(simulator.port, "?tps=2&window=1"));
    await startDispatcher();
    try {
      const accountId = await createSendingAccount();
      const recipients = Array.from({ length: 8 }, (_, index) => `+2637715000${index}9`);
      const ids = await send(accountId, recipients, "Paused mid-queue");
      await waitFor(async () => submitsTo(recipients).length >= 1, "the first submit");
      await pauseCarrier({ operator: "econet", reason: "mid-queue", actor: "test" });
      await waitFor(async () => (await carrier("econet")).binds[0]?.state === "paused", "econet reported paused");
      await waitFor(
        async () => (await db().message.count({ where: { id: { in: ids }, status: "processing" } })) === 0,
        "in-flight finished",
      );

      const held = await db().message.findMany({ where: { id: { in: ids } } });
      const sent = held.filter((message) => message.status === "success");
      const waiting = held.filter((message) => message.status === "enqueued");
      expect(sent.length).toBeGreaterThanOrEqual(1);
      expect(waiting.length).toBeGreaterThanOrEqual(1);
      expect(sent.length + waiting.length).toBe(ids.length);
      expect(waiting.every((message) => message.attempts === 0)).toBe(true);
      expect(submitsTo(recipients)).toHaveLength(sent.length);

      await resumeCarrier({ operator: "econet", actor: "test" });
      const final = await waitForFinal(ids);
      expect(final.every((message) => message.status === "success" && message.attempts === 1)).toBe(true);
      expect(
        submitsTo(recipients)
          .map((submit) => `+${submit.destination}`)
          .sort(),
      ).toEqual([...recipients].sort());
      await expectLedgerBalanced(accountId);
    } finally {
      await resumeCarrier({ operator: "econet", actor: "test" });
      await stopDispatcher();
      setEnv(carrierUrls(simulator.port));
    }
  });
  it("counts the receipts awaited of the last hour's acceptances: up as the carrier accepts, down as the receipts come", async () => {
    const slow = await startTestSimulator({ dlrDelayMs: 5_000 });
    setEnv(carrierUrls(slow.port));
    await startDispatcher();
    try {
      const awaited = async () => (await carrier("telecel")).lastHour.receiptsAwaited;
      const gauge = async () =>
        (await metrics().carrierReceiptsAwaited.get()).values.find((value) => value.labels.operator === "telecel")?.value;
      await waitFor(async () => (await carrier("telecel")).binds[0]?.state === "bound", "telecel bound");
      expect(await awaited()).toBe(0);
      const accountId = await createSendingAccount();
      // Delivered, failed by its receipt (UNDELIV), never receipted.
      const ids = await send(accountId, ["+263733600019", "+263733600001", "+263733600003"], "Awaiting receipts");
      await waitFor(async () => (await awaited()) === 3, "three receipts awaited");
      await waitFor(async () => (await gauge()) === 3, "tumira_carrier_receipts_awaited 3");
      await waitFor(async () => (await awaited()) === 1, "the delivered and the failed no longer awaited");
      await waitFor(async () => (await gauge()) === 1, "tumira_carrier_receipts_awaited 1");
      const messages = await db().message.findMany({ where: { id: { in: ids } } });
      expect(messages.map((message) => [message.to, message.status, message.deliveredAt !== null]).sort()).toEqual([
        ["+263733600001", "failed", false],
        ["+263733600003", "success", false],
        ["+263733600019", "success", true],
      ]);
      expect((await carrier("telecel")).lastHour).toMatchObject({ sent: 3, delivered: 1, receiptsAwaited: 1 });
    } finally {
      await stopDispatcher();
      await slow.stop();
      setEnv(carrierUrls(simulator.port));
    }
  });
});
