// End to end over real SMPP: sends accepted by acceptMessages are claimed by the dispatcher,
// submitted to an SMSC simulator over TCP, answered, receipted, refunded when they fail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { getMessageDetail } from "@/lib/dashboard/get-message-detail";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";
import { recordReceipts } from "@/lib/delivery/record-receipt";
import { stopBackgroundServices, type BackgroundService } from "@/lib/delivery/background-services";
import { segmentMessage } from "@/lib/messages/segments";
import { useTestDatabase } from "../helpers/test-database";
import {
  carrierUrls,
  createSendingAccount,
  expectLedgerBalanced,
  send,
  setEnv,
  startTestSimulator,
  waitForFinal,
  type TestSimulator,
} from "../helpers/delivery";

useTestDatabase();

let simulator: TestSimulator;
let services: BackgroundService[] = [];

beforeAll(async () => {
  simulator = await startTestSimulator({ dlrDelayMs: 50 });
  setEnv({ ...carrierUrls(simulator.port), SMSC_SIMULATOR_DLR_DELAY_MS: "50" });
  services = await startDeliveryServices(
    { dispatcher: true, simulator: false },
    { dispatcher: { pollMs: 50, retryPolicy: { maxAttempts: 3, baseDelayMs: 50, maxDelayMs: 200 } }, receipts: { retryMs: 100 } },
  );
});

afterAll(async () => {
  await stopBackgroundServices(services);
  await simulator?.stop();
});

async function ledgerOf(messageId: string) {
  return db().ledgerEntry.findMany({ where: { messageId }, orderBy: { id: "asc" } });
}

describe("delivery end to end", () => {
  it("delivers a single send: success, delivered_at, DELIVRD, one part with the carrier's id, the timeline", async () => {
    const accountId = await createSendingAccount();
    const [id] = await send(accountId, ["+263771234567"], "Hello from Tumira");
    const [message] = await waitForFinal([id], { delivered: true });
    expect(message).toMatchObject({ status: "success", operatorResponse: "DELIVRD", attempts: 1 });
    expect(message.deliveredAt).toBeInstanceOf(Date);
    expect(message.dispatchedAt).toBeInstanceOf(Date);
    const parts = await db().messagePart.findMany({ where: { messageId: id } });
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({
      status: "delivered",
      receiptStat: "DELIVRD",
      carrierMessageId: message.carrierMessageId,
      operator: "econet",
    });
    const seen = simulator.submits.filter((submit) => submit.destination === "263771234567");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      systemId: "econet",
      source: "TUMIRA",
      dataCoding: 0,
      text: "Hello from Tumira",
      messageId: message.carrierMessageId,
    });
    const { events } = await getMessageDetail(id, { platform: true });
    expect(events.map((event) => event.kind)).toEqual(["accepted", "dispatched", "success", "delivered"]);
    expect(events[1].detail).toBe("attempt 1 to econet, 1 part(s)");
    expect(events[2].detail).toBe(`ESME_ROK id:${message.carrierMessageId}`);
    // The happy path is read from the message; no timeline row was written for it.
    expect(await db().messageEvent.count({ where: { messageId: id } })).toBe(0);
    // Charged, not refunded.
    expect((await ledgerOf(id)).map((entry) => entry.kind)).toEqual(["hold"]);
    await expectLedgerBalanced(accountId);
  });

  it("delivers a bulk send to all three carriers, long messages as concatenated parts in GSM-7 and UCS-2", async () => {
    const accountId = await createSendingAccount();
    const gsm = "Mhoro! Price list {2025}: ".padEnd(400, "abc€ ");
    const ucs2 = "Makadii 😀 ".repeat(15);
    const recipients = ["+263771111001", "+263712221002", "+263733331003"];
    const ids = [...(await send(accountId, recipients, gsm)), ...(await send(accountId, recipients, ucs2))];
    const messages = await waitForFinal(ids, { delivered: true });
    expect(messages.every((message) => message.status === "success" && message.deliveredAt && message.operatorResponse === "DELIVRD")).toBe(
      true,
    );
    expect(new Set(messages.map((message) => message.operator))).toEqual(new Set(["econet", "netone", "telecel"]));

    for (const [body, dataCoding] of [
      [gsm, 0],
      [ucs2, 8],
    ] as const) {
      const expected = segmentMessage(body);
      const parts = simulator.submits.filter((submit) => submit.destination === "263712221002" && submit.dataCoding === dataCoding);
      expect(parts).toHaveLength(expected.segments);
      expect(parts.map((part) => part.part?.number)).toEqual(expected.parts.map((_, index) => index + 1));
      expect(new Set(parts.map((part) => part.part?.reference)).size).toBe(1);
      expect(parts.every((part) => part.systemId === "netone" && part.part?.total === expected.segments)).toBe(true);
      expect(parts.map((part) => part.text).join("")).toBe(body);
    }
    const gsmMessage = messages.find((message) => message.to === "+263712221002" && message.encoding === "gsm7")!;
    const parts = await db().messagePart.findMany({ where: { messageId: gsmMessage.id }, orderBy: { partNumber: "asc" } });
    expect(parts).toHaveLength(gsmMessage.segments);
    expect(parts.every((part) => part.status === "delivered")).toBe(true);
    expect(gsmMessage.carrierMessageId).toBe(parts[0].carrierMessageId);
    await expectLedgerBalanced(accountId);
  });

  it("ends failure patterns failed with the hold refunded exactly once", async () => {
    const balance = 1_000_000n;
    const accountId = await createSendingAccount(balance);
    const cases = {
      "+263771230001": { operatorResponse: "UNDELIV", stage: "receipt" },
      "+263771230002": { operatorResponse: "REJECTD", stage: "receipt" },
      "+263771230007": { operatorResponse: "EXPIRED", stage: "receipt" },
      "+263771230005": { operatorResponse: "ESME_RINVDSTADR (0x0000000b)", stage: "submit" },
      "+263771230006": { operatorResponse: "ESME_RSYSERR (0x00000008)", stage: "retries" },
    } as const;
    const ids = await send(accountId, Object.keys(cases), "This will not arrive");
    const messages = await waitForFinal(ids);
    for (const message of messages) {
      const expected = cases[message.to as keyof typeof cases];
      expect(message.status, message.to).toBe("failed");
      expect(message.operatorResponse).toBe(expected.operatorResponse);
      expect(message.finishedAt).toBeInstanceOf(Date);
      expect(message.deliveredAt).toBeNull();
      const ledger = await ledgerOf(message.id);
      expect(ledger.map((entry) => [entry.kind, entry.amount])).toEqual([
        ["hold", -message.charge],
        ["release", message.charge],
      ]);
      const kinds = (await db().messageEvent.findMany({ where: { messageId: message.id }, orderBy: { id: "asc" } })).map(
        (event) => event.kind,
      );
      expect(kinds.filter((kind) => kind === "refunded")).toHaveLength(1);
      if (expected.stage === "retries") {
        expect(message.attempts).toBe(3);
        expect(kinds.filter((kind) => kind === "retry")).toHaveLength(2);
        expect(message.lastError).toMatch(/gave up after 3 attempts/);
      }
    }
    // The SYSERR number was submitted three times, the permanent refusal once.
    expect(simulator.submits.filter((submit) => submit.destination === "263771230006")).toHaveLength(3);
    expect(simulator.submits.filter((submit) => submit.destination === "263771230005")).toHaveLength(1);
    expect((await db().account.findUniqueOrThrow({ where: { id: accountId } })).balance).toBe(balance);

    // The same receipt again (a carrier resending it) changes nothing and refunds nothing.
    const undelivered = messages.find((message) => message.to === "+263771230001")!;
    expect(
      await recordReceipts([
        { operator: "econet", receipt: { messageId: undelivered.carrierMessageId!, stat: "UNDELIV", err: "001", doneAt: null } },
      ]),
    ).toEqual(["matched"]);
    expect(await ledgerOf(undelivered.id)).toHaveLength(2);
    await expectLedgerBalanced(accountId);
  });

  it("keeps a message accepted but unreceipted as success, and matches a decimal receipt to a hex id", async () => {
    const accountId = await createSendingAccount();
    const ids = await send(accountId, ["+263771230003", "+263771230008"], "Receipts vary");
    const messages = await waitForFinal(ids);
    const decimal = await waitForFinal([ids[1]], { delivered: true });
    expect(decimal[0]).toMatchObject({ status: "success", operatorResponse: "DELIVRD" });
    expect(decimal[0].carrierMessageId).toMatch(/^[0-9a-f]+$/);
    const silent = messages.find((message) => message.to === "+263771230003")!;
    expect(silent.status).toBe("success");
    expect(silent.deliveredAt).toBeNull();
    expect(silent.operatorResponse).toBe(`ESME_ROK id:${silent.carrierMessageId}`);
  });

  it("sends test-key messages to the simulator only and never touches the ledger, even when they fail", async () => {
    const accountId = await createSendingAccount();
    const ids = await send(accountId, ["+263779990000", "+263779990001"], "Sandbox", { test: true });
    const messages = await waitForFinal(ids, { delivered: true });
    expect(messages.every((message) => message.test)).toBe(true);
    expect(messages.find((message) => message.to === "+263779990000")!.operatorResponse).toBe("DELIVRD");
    expect(messages.find((message) => message.to === "+263779990001")!).toMatchObject({ status: "failed", operatorResponse: "UNDELIV" });
    // Not on the carriers' (the test's) simulator: test traffic has its own.
    expect(simulator.submits.some((submit) => submit.destination.startsWith("26377999"))).toBe(false);
    expect(await db().ledgerEntry.count({ where: { messageId: { in: ids } } })).toBe(0);
    await expectLedgerBalanced(accountId);
  });

  it("acknowledges a receipt for an unknown id without matching anything", async () => {
    expect(
      await recordReceipts([{ operator: "econet", receipt: { messageId: "ffffffff0", stat: "DELIVRD", err: null, doneAt: null } }]),
    ).toEqual(["unknown"]);
  });
});
