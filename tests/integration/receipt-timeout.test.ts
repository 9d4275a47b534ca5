// Receipts that never come, over real SMPP: the simulator accepts a …0003 recipient and never
// receipts it. After the receipt timeout (short here, through the delivery tuning) the sweep settles
// the message as sent, once: still success, still charged, a receipt_timeout event on its timeline.
// A receipt that arrives after that is applied as usual.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { getMessageDetail } from "@/lib/dashboard/get-message-detail";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";
import { recordReceipts } from "@/lib/delivery/record-receipt";
import { sweepReceiptTimeouts } from "@/lib/delivery/receipt-timeout";
import { RECEIPT_TIMEOUT_EVENT } from "@/lib/messages/message-timeline";
import { stopBackgroundServices, type BackgroundService } from "@/lib/delivery/background-services";
import { useTestDatabase } from "../helpers/test-database";
import {
  carrierUrls,
  createSendingAccount,
  expectLedgerBalanced,
  send,
  setEnv,
  startTestSimulator,
  waitFor,
  waitForFinal,
  type TestSimulator,
} from "../helpers/delivery";

useTestDatabase();

const TIMEOUT_MS = 1500;
let simulator: TestSimulator;
let services: BackgroundService[] = [];

beforeAll(async () => {
  simulator = await startTestSimulator({ dlrDelayMs: 50 });
  setEnv({ ...carrierUrls(simulator.port), SMSC_SIMULATOR_DLR_DELAY_MS: "50" });
  services = await startDeliveryServices(
    { dispatcher: true, simulator: false },
    { dispatcher: { pollMs: 50 }, receipts: { retryMs: 100 }, receiptTimeout: { timeoutMs: TIMEOUT_MS, intervalMs: 100 } },
  );
});

afterAll(async () => {
  await stopBackgroundServices(services);
  await simulator?.stop();
});

async function timeoutEvents(messageId: string) {
  return db().messageEvent.findMany({ where: { messageId, kind: RECEIPT_TIMEOUT_EVENT } });
}

async function balanceOf(accountId: string): Promise<bigint> {
  return (await db().account.findUniqueOrThrow({ where: { id: accountId } })).balance;
}

async function ledgerKinds(messageId: string): Promise<string[]> {
  return (await db().ledgerEntry.findMany({ where: { messageId }, orderBy: { id: "asc" } })).map((entry) => entry.kind);
}

/** Resolves once the sweep has read past every part of these messages. */
async function sweptPast(messageIds: string[]): Promise<void> {
  const parts = await db().messagePart.findMany({ where: { messageId: { in: messageIds } } });
  expect(parts.length).toBeGreaterThanOrEqual(messageIds.length);
  const last = parts.map((part) => part.id).sort()[parts.length - 1];
  await waitFor(async () => {
    const sweep = await db().receiptSweep.findUnique({ where: { id: 1 } });
    return sweep !== null && sweep.lastPartId >= last;
  }, "the sweep to read past the parts");
}

describe("receipt timeout", () => {
  it("settles an unreceipted message once as sent: still success and charged, the timeline says why; delivered ones are left alone", async () => {
    const accountId = await createSendingAccount();
    const [silentId, deliveredId] = await send(accountId, ["+263771230003", "+263771234567"], "Anyone there?");
    await waitForFinal([silentId]);
    await waitForFinal([deliveredId], { delivered: true });
    const balance = await balanceOf(accountId);

    await waitFor(async () => (await timeoutEvents(silentId)).length > 0, "the unreceipted message to be settled");
    // Later sweeps read past it (and past a newer message) without settling it again.
    const [laterId] = await send(accountId, ["+263771239999"], "Later");
    const [later] = await waitForFinal([laterId], { delivered: true });
    await sweptPast([silentId, deliveredId, laterId]);

    // Parts once read are not read again: with nothing newly due, a sweep reads nothing.
    expect(await sweepReceiptTimeouts({ timeoutMs: TIMEOUT_MS })).toEqual({ scanned: 0, settled: 0 });

    const events = await timeoutEvents(silentId);
    expect(events).toHaveLength(1);
    expect(events[0].detail).toBe("no delivery receipt within 2 s; settled as sent");
    const silent = await db().message.findUniqueOrThrow({ where: { id: silentId } });
    expect(silent).toMatchObject({ status: "success", deliveredAt: null, operatorResponse: `ESME_ROK id:${silent.carrierMessageId}` });
    expect(await ledgerKinds(silentId)).toEqual(["hold"]);
    expect(await balanceOf(accountId)).toBe(balance - later.charge);
    expect(await timeoutEvents(deliveredId)).toHaveLength(0);
    expect(await timeoutEvents(laterId)).toHaveLength(0);

    const { events: timeline } = await getMessageDetail(silentId, { accountId, test: false });
    expect(timeline.map((event) => event.kind)).toEqual(["accepted", "dispatched", "success", RECEIPT_TIMEOUT_EVENT]);
    await expectLedgerBalanced(accountId);
  });

  it("applies a DELIVRD that comes after the settlement", async () => {
    const accountId = await createSendingAccount();
    const [id] = await send(accountId, ["+263712340003"], "Late but delivered");
    await waitFor(async () => (await timeoutEvents(id)).length > 0, "the unreceipted message to be settled");
    const settled = await db().message.findUniqueOrThrow({ where: { id } });

    const receipt = { messageId: settled.carrierMessageId!, stat: "DELIVRD" as const, err: null, doneAt: null };
    expect(await recordReceipts([{ operator: settled.operator, receipt }])).toEqual(["matched"]);
    const delivered = await db().message.findUniqueOrThrow({ where: { id } });
    expect(delivered).toMatchObject({ status: "success", operatorResponse: "DELIVRD" });
    expect(delivered.deliveredAt).toBeInstanceOf(Date);
    expect(await ledgerKinds(id)).toEqual(["hold"]);
    const { events: timeline } = await getMessageDetail(id, { accountId, test: false });
    expect(timeline.map((event) => event.kind)).toEqual(["accepted", "dispatched", "success", RECEIPT_TIMEOUT_EVENT, "delivered"]);
    await expectLedgerBalanced(accountId);
  });

  it("applies an UNDELIV that comes after the settlement: failed, refunded exactly once", async () => {
    const balance = 1_000_000n;
    const accountId = await createSendingAccount(balance);
    const [id] = await send(accountId, ["+263733330003"], "Late and undelivered");
    await waitFor(async () => (await timeoutEvents(id)).length > 0, "the unreceipted message to be settled");
    const settled = await db().message.findUniqueOrThrow({ where: { id } });
    expect(await balanceOf(accountId)).toBe(balance - settled.charge);

    const receipt = { messageId: settled.carrierMessageId!, stat: "UNDELIV" as const, err: "001", doneAt: null };
    expect(await recordReceipts([{ operator: settled.operator, receipt }])).toEqual(["matched"]);
    // The carrier sends it again: nothing changes.
    expect(await recordReceipts([{ operator: settled.operator, receipt }])).toEqual(["matched"]);
    const failed = await db().message.findUniqueOrThrow({ where: { id } });
    expect(failed).toMatchObject({ status: "failed", operatorResponse: "UNDELIV", deliveredAt: null });
    expect(await ledgerKinds(id)).toEqual(["hold", "release"]);
    expect(await balanceOf(accountId)).toBe(balance);
    const { events: timeline } = await getMessageDetail(id, { accountId, test: false });
    expect(timeline.map((event) => event.kind)).toEqual(["accepted", "dispatched", "success", RECEIPT_TIMEOUT_EVENT, "failed", "refunded"]);
    await expectLedgerBalanced(accountId);
  });

  it("settles each message once while several sweepers run at the same time, a two-part message included", async () => {
    const accountId = await createSendingAccount();
    const recipients = ["+263771110003", "+263771120003", "+263712130003", "+263733140003"];
    const ids = [
      ...(await send(accountId, recipients, "Nobody answers")),
      ...(await send(accountId, ["+263771150003"], "Two parts and no receipt. ".repeat(8))),
    ];
    await waitForFinal(ids);
    expect(await db().messagePart.count({ where: { messageId: ids[ids.length - 1] } })).toBe(2);
    // Four sweepers of one part per batch, beside the service's own, until every message is settled.
    await waitFor(async () => {
      await Promise.all(Array.from({ length: 4 }, () => sweepReceiptTimeouts({ timeoutMs: TIMEOUT_MS, batchSize: 1 })));
      return (await db().messageEvent.count({ where: { messageId: { in: ids }, kind: RECEIPT_TIMEOUT_EVENT } })) >= ids.length;
    }, "every message to be settled");
    await sweptPast(ids);
    for (const id of ids) expect(await timeoutEvents(id), id).toHaveLength(1);
    await expectLedgerBalanced(accountId);
  });
});
