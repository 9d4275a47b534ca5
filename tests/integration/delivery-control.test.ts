// Delivery control on a real database: the claim serves high priority before a queued backlog and
// accounts in turn; a scheduled send waits as created until its time, across a dispatcher restart,
// over real SMPP; a message whose validity passes in the queue fails EXPIRED and is refunded once,
// and one handed over carries what is left of its validity to the carrier. The queue's own moves
// (a claim, an expired lease, a stop's release) are message.status events for status endpoints.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { acceptMessages } from "@/lib/messages/accept-messages";
import { claimMessages, releaseLeases, requeueExpiredLeases, type ClaimedMessage } from "@/lib/delivery/claim-messages";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { enqueueScheduledMessages, expireQueuedMessages } from "@/lib/delivery/fail-queued-messages";
import { startDeliveryServices, type DeliveryTuning } from "@/lib/delivery/start-delivery-services";
import { stopBackgroundServices, type BackgroundService } from "@/lib/delivery/background-services";
import { AppError } from "@/lib/errors";
import { pauseCarrier, resumeCarrier } from "@/lib/carriers/carrier-pauses";
import { readCarrierOverview } from "@/lib/delivery/carrier-links";
import { servingTurn } from "@/lib/messages/queue-turns";
import type { Priority } from "@/lib/model/sends";
import { useTestDatabase } from "../helpers/test-database";
import {
  carrierUrls,
  createSendingAccount,
  expectLedgerBalanced,
  SENDER,
  setEnv,
  startTestSimulator,
  waitFor,
  waitForFinal,
  type TestSimulator,
} from "../helpers/delivery";

useTestDatabase();

const TUNING: DeliveryTuning = {
  dispatcher: { pollMs: 50, pauseCheckMs: 100, linkReportMs: 100, queueSweepMs: 50 },
  connections: { reconnectMinMs: 50, reconnectMaxMs: 200, bindWaitMs: 200 },
  receipts: { retryMs: 100 },
};

type Control = { priority?: Priority; sendAt?: string; validityPeriod?: number };

async function sendWith(accountId: string, recipients: string[], control: Control = {}): Promise<string[]> {
  const accepted = await acceptMessages({
    accountId,
    from: SENDER,
    body: "Delivery control",
    recipients,
    actor: "test",
    mode: "live",
    kind: recipients.length === 1 ? "single" : "bulk",
    ...control,
  });
  return accepted.messages.map((message) => message.id);
}

function recipients(count: number, first: number): string[] {
  return Array.from({ length: count }, (_, index) => `+26377${String(first + index).padStart(7, "0")}`);
}

let owners = 0;
function claim(limit: number, now?: Date): Promise<ClaimedMessage[]> {
  return claimMessages({ owner: `claimer-${++owners}`, operator: "econet", test: false, limit, leaseMs: 60_000, now });
}

// Each test starts with an empty queue: what earlier tests left queued or claimed is set aside as sent.
beforeEach(async () => {
  await db().message.updateMany({ where: { status: { in: ["created", "enqueued", "processing"] } }, data: { status: "success" } });
});

async function refundsOf(messageId: string): Promise<number> {
  return db().ledgerEntry.count({ where: { messageId, kind: "release" } });
}

describe("priority and fairness in the claim", () => {
  it("serves a high-priority message before a normal backlog queued earlier", async () => {
    const accountId = await createSendingAccount(100_000_000n);
    await sendWith(accountId, recipients(500, 1000));
    const [urgent] = await sendWith(accountId, ["+263779000001"], { priority: "high" });

    expect((await claim(1)).map((message) => message.id)).toEqual([urgent]);
    expect((await claim(10)).map((message) => message.id)).not.toContain(urgent);
    expect((await db().message.findUniqueOrThrow({ where: { id: urgent } })).priority).toBe("high");
  });

  it("gives a second account's few messages turns among the first of a claim, not after the first account's backlog", async () => {
    const big = await createSendingAccount(100_000_000n, "Big");
    const small = await createSendingAccount(100_000_000n, "Small");
    await sendWith(big, recipients(2000, 2000));
    const few = [
      ...(await sendWith(small, ["+263779000011"])),
      ...(await sendWith(small, ["+263779000012"])),
      ...(await sendWith(small, ["+263779000013"])),
    ];

    // Two dispatchers claiming at once (SKIP LOCKED on PostgreSQL): together they hold the small account's three messages.
    const claimed = (await Promise.all([claim(200), claim(200)])).flat().map((message) => message.id);
    expect(claimed).toHaveLength(400);
    expect(new Set(claimed).size).toBe(400);
    for (const id of few) expect(claimed).toContain(id);
  });

  it("starts a newcomer at the turn in service when the carrier has fallen behind the clock", async () => {
    const big = await createSendingAccount(100_000_000n, "Lagging");
    const small = await createSendingAccount(100_000_000n, "Newcomer");
    const backlog = await sendWith(big, recipients(300, 5000));
    // As if the backlog had been queued a minute ago and the carrier had taken only its first 100 since.
    const queued = await db().message.findMany({ where: { id: { in: backlog } }, select: { id: true, turn: true } });
    for (const message of queued) {
      await sql().run(`UPDATE "Message" SET "turn" = ? WHERE "id" = ?`, [Number(message.turn) - 60_000, message.id]);
    }
    const inService = await claim(100);
    const servedTurn = Math.max(
      ...queued.filter((message) => inService.some((claimed) => claimed.id === message.id)).map((message) => Number(message.turn) - 60_000),
    );
    await waitFor(async () => servingTurn("econet", false, Date.now()) === servedTurn, "the turn in service to be read");

    const [newcomer] = await sendWith(small, ["+263779000021"]);
    expect(Number((await db().message.findUniqueOrThrow({ where: { id: newcomer } })).turn)).toBe(servedTurn);
    expect((await claim(2)).map((message) => message.id)).toContain(newcomer);
  });
});

describe("scheduled sends", () => {
  it("refuses a send_at in the past, beyond 35 days or not RFC 3339, naming the field", async () => {
    const accountId = await createSendingAccount();
    for (const sendAt of [
      new Date(Date.now() - 5 * 60_000).toISOString(),
      new Date(Date.now() + 36 * 86_400_000).toISOString(),
      "tomorrow at nine",
      "2030-01-31T09:00:00",
    ]) {
      const error = await sendWith(accountId, ["+263771000001"], { sendAt }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).options.fields?.map((field) => field.field)).toEqual(["send_at"]);
    }
    // A time no clock shows, which Date would roll over into a real one.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    for (const sendAt of [`${tomorrow}T24:00:00Z`, `${tomorrow}T10:60:00Z`, `${tomorrow.slice(0, 8)}32T09:00:00Z`]) {
      const error = await sendWith(accountId, ["+263771000001"], { sendAt }).catch((caught: unknown) => caught);
      expect((error as AppError).options.fields).toEqual([
        { field: "send_at", description: "must be an RFC 3339 date-time with a time zone, e.g. 2030-01-31T09:00:00Z" },
      ]);
    }
    for (const validityPeriod of [59, 7 * 86_400 + 1, 90.5]) {
      const error = await sendWith(accountId, ["+263771000001"], { validityPeriod }).catch((caught: unknown) => caught);
      expect((error as AppError).options.fields?.map((field) => field.field)).toEqual(["validity_period"]);
    }
    expect(await db().message.count({ where: { accountId } })).toBe(0);
  });

  it("takes a send_at of now, or a few seconds behind the server's clock, as now: queued at the next sweep", async () => {
    const accountId = await createSendingAccount();
    const before = Date.now();
    const [id] = await sendWith(accountId, ["+263771000004"], { sendAt: new Date(before - 5_000).toISOString() });
    const stored = await db().message.findUniqueOrThrow({ where: { id } });
    expect(stored.status).toBe("created");
    expect(stored.sendAt!.getTime()).toBeGreaterThanOrEqual(before);
    expect(stored.sendAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await enqueueScheduledMessages(new Date(stored.sendAt!.getTime()))).toBe(1);
    expect((await claim(10, stored.sendAt!)).map((message) => message.id)).toEqual([id]);
  });

  it("holds the message as created until its time: not claimable before, queued after", async () => {
    const accountId = await createSendingAccount();
    const sendAt = new Date(Date.now() + 60_000);
    const [id] = await sendWith(accountId, ["+263771000002"], { sendAt: sendAt.toISOString() });
    const stored = await db().message.findUniqueOrThrow({ where: { id } });
    expect(stored.status).toBe("created");
    expect(stored.sendAt?.toISOString()).toBe(sendAt.toISOString());
    expect(await db().ledgerEntry.count({ where: { messageId: id, kind: "hold" } })).toBe(1);

    expect(await enqueueScheduledMessages(new Date(sendAt.getTime() - 1000))).toBe(0);
    expect(await claim(10)).toEqual([]);
    expect(await enqueueScheduledMessages(sendAt)).toBe(1);
    expect((await claim(10, sendAt)).map((message) => message.id)).toEqual([id]);
  });
});

describe("validity", () => {
  it("fails a message still queued when its validity passes, EXPIRED, refunded exactly once", async () => {
    const accountId = await createSendingAccount();
    const [id] = await sendWith(accountId, ["+263771000003"], { validityPeriod: 60 });
    const stored = await db().message.findUniqueOrThrow({ where: { id } });
    expect(stored.validityPeriod).toBe(60);

    expect(await expireQueuedMessages(new Date(Date.now() + 30_000))).toBe(0);
    const later = new Date(stored.expiresAt!.getTime() + 1);
    expect(await expireQueuedMessages(later)).toBe(1);
    expect(await expireQueuedMessages(later)).toBe(0);

    const expired = await db().message.findUniqueOrThrow({ where: { id } });
    expect(expired.status).toBe("failed");
    expect(expired.operatorResponse).toBe("EXPIRED");
    expect(await refundsOf(id)).toBe(1);
    expect(await claim(10)).toEqual([]);
    await expectLedgerBalanced(accountId);
  });

  it("expires a sweep's worth of several accounts' messages at once, each live one released by its own hold", async () => {
    const first = await createSendingAccount(1_000_000n, "First");
    const second = await createSendingAccount(1_000_000n, "Second");
    const firstIds = await sendWith(first, recipients(700, 3_100), { validityPeriod: 60 });
    const secondIds = await sendWith(second, ["+263711000001", "+263731000002"], { validityPeriod: 60 });
    const [testId] = (
      await acceptMessages({
        accountId: second,
        from: SENDER,
        body: "Test traffic",
        recipients: ["+263771000009"],
        actor: "test",
        mode: "test",
        kind: "single",
        validityPeriod: 60,
      })
    ).messages.map((message) => message.id);
    const balances = async () =>
      (await db().account.findMany({ where: { id: { in: [first, second] } }, orderBy: { name: "asc" } })).map((account) => account.balance);
    const [firstBefore, secondBefore] = await balances();

    expect(await expireQueuedMessages(new Date(Date.now() + 61_000))).toBe(703);

    const holds = await db().ledgerEntry.findMany({ where: { messageId: { in: [...firstIds, ...secondIds] }, kind: "hold" } });
    const releases = await db().ledgerEntry.findMany({
      where: { messageId: { in: [...firstIds, ...secondIds, testId] }, kind: "release" },
    });
    expect(new Map(releases.map((release) => [release.messageId, release.amount]))).toEqual(
      new Map(holds.map((hold) => [hold.messageId, -hold.amount])),
    );
    const heldBy = (ids: string[]) => holds.filter((hold) => ids.includes(hold.messageId!)).reduce((sum, hold) => sum - hold.amount, 0n);
    expect(await balances()).toEqual([firstBefore + heldBy(firstIds), secondBefore + heldBy(secondIds)]);
    const events = await db().messageEvent.groupBy({
      by: ["kind"],
      where: { messageId: { in: [...firstIds, ...secondIds, testId] } },
      _count: true,
    });
    expect(Object.fromEntries(events.map((event) => [event.kind, event._count]))).toEqual({ failed: 703, refunded: 702 });
    expect(await db().message.count({ where: { id: testId, status: "failed", operatorResponse: "EXPIRED" } })).toBe(1);
    await expectLedgerBalanced(first);
    await expectLedgerBalanced(second);
  });
});

describe("over real SMPP", () => {
  let simulator: TestSimulator;
  let services: BackgroundService[] = [];

  beforeAll(async () => {
    simulator = await startTestSimulator({ dlrDelayMs: 50 });
    setEnv({ ...carrierUrls(simulator.port), SMSC_SIMULATOR_DLR_DELAY_MS: "50" });
  });

  afterAll(async () => {
    await stopBackgroundServices(services);
    await simulator?.stop();
  });

  function submitsTo(destination: string) {
    return simulator.submits.filter((submit) => `+${submit.destination}` === destination && submit.messageId);
  }

  it("sends a scheduled message after its time, not before, with a dispatcher restart in between", { timeout: 30_000 }, async () => {
    const accountId = await createSendingAccount();
    const to = "+263771000004";
    const sendAt = new Date(Date.now() + 1500);
    const [id] = await sendWith(accountId, [to], { sendAt: sendAt.toISOString() });

    services = await startDeliveryServices({ dispatcher: true, simulator: false }, TUNING);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await stopBackgroundServices(services);
    expect(submitsTo(to)).toEqual([]);
    expect((await db().message.findUniqueOrThrow({ where: { id } })).status).toBe("created");

    services = await startDeliveryServices({ dispatcher: true, simulator: false }, TUNING);
    const [message] = await waitForFinal([id]);
    expect([message.status, message.lastError]).toEqual(["success", null]);
    expect(message.dispatchedAt!.getTime()).toBeGreaterThanOrEqual(sendAt.getTime());
    expect(submitsTo(to)).toHaveLength(1);
  });

  it("passes what is left of the validity to the carrier in SMPP's relative format", { timeout: 30_000 }, async () => {
    const accountId = await createSendingAccount();
    const to = "+263771000019";
    const [id] = await sendWith(accountId, [to], { validityPeriod: 3600 });
    if (services.length === 0) services = await startDeliveryServices({ dispatcher: true, simulator: false }, TUNING);
    const [message] = await waitForFinal([id]);
    expect([message.status, message.lastError]).toEqual(["success", null]);
    const [submit] = submitsTo(to);
    // Within the hour: 0 days, 0 or 1 hours (00:59:5x or 01:00:00).
    expect(submit.validityPeriod).toMatch(/^000000(005[0-9]|0100)[0-5][0-9]000R$/);
  });

  it("expires a message on time while its carrier is paused, refunded once, never submitted", { timeout: 30_000 }, async () => {
    await pauseCarrier({ operator: "netone", reason: "validity under a pause", actor: "test" });
    try {
      if (services.length === 0) services = await startDeliveryServices({ dispatcher: true, simulator: false }, TUNING);
      // The dispatcher has seen the pause (it reports the link paused) before the message is sent.
      await waitFor(async () => {
        const binds = (await readCarrierOverview()).find((carrier) => carrier.operator === "netone")?.binds ?? [];
        return binds.length > 0 && binds.every((bind) => bind.state === "paused");
      }, "the pause to reach the dispatcher");
      const accountId = await createSendingAccount();
      const to = "+263711000029";
      const [id] = await acceptMessages({
        accountId,
        from: SENDER,
        body: "Paused",
        recipients: [to],
        actor: "test",
        mode: "live",
        kind: "single",
        validityPeriod: 60,
      }).then((accepted) => accepted.messages.map((message) => message.id));
      // Its validity runs out while the carrier stays paused.
      await db().message.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      const [message] = await waitForFinal([id]);
      expect([message.status, message.operatorResponse]).toEqual(["failed", "EXPIRED"]);
      expect(await refundsOf(id)).toBe(1);
      expect(submitsTo(to)).toEqual([]);
      await expectLedgerBalanced(accountId);
    } finally {
      await resumeCarrier({ operator: "netone", actor: "test" });
    }
  });
});

describe("message.status for the queue's own moves", () => {
  it("queues processing for a claim, and enqueued for an expired lease and for a stop's release", async () => {
    const accountId = await createSendingAccount();
    await createWebhookEndpoint({ accountId, url: "https://93.184.215.14/hooks", events: ["message.status"], actor: "test" });
    await sendWith(accountId, ["+263771000101", "+263771000102"]);
    const [expiring] = await claimMessages({ owner: "short-lease", operator: "econet", test: false, limit: 1, leaseMs: 1_000 });
    const [released] = await claimMessages({ owner: "stopping", operator: "econet", test: false, limit: 1, leaseMs: 600_000 });

    expect(await requeueExpiredLeases(new Date(Date.now() + 5_000))).toBe(1);
    expect(await releaseLeases("stopping")).toBe(1);

    const deliveries = await db().webhookDelivery.findMany({ where: { accountId, eventType: "message.status" }, orderBy: { id: "asc" } });
    const statusesOf = (id: string) =>
      deliveries
        .map((row) => (JSON.parse(row.payload) as { data: { id: string; status: string } }).data)
        .filter((data) => data.id === id)
        .map((data) => data.status);
    expect(statusesOf(expiring.id)).toEqual(["enqueued", "processing", "enqueued"]);
    expect(statusesOf(released.id)).toEqual(["enqueued", "processing", "enqueued"]);
    expect(new Set(deliveries.map((row) => row.eventKey)).size).toBe(deliveries.length);
  });
});
