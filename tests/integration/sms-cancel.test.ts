// Cancelling over real HTTP: POST /api/v1/sms/{id}/cancel and POST /api/v1/sms/bulk/{bulk_id}/cancel
// against a server process. A message no carrier has yet (scheduled or queued) ends failed with
// CANCELLED and exactly one refund; one a dispatcher holds answers 409 and nothing changes; a bulk
// cancel counts what it cancelled. Racing a bulk cancel against a real dispatcher over SMPP, every
// message ends either cancelled (never submitted) or sent (never refunded), none both, none neither.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { smsSchema } from "@/lib/messages/serialize-sms";
import { bulkCancellationSchema } from "@/lib/api/sms/sms-schemas";
import { claimMessages } from "@/lib/delivery/claim-messages";
import { cancelMessage } from "@/lib/messages/cancel-messages";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";
import { stopBackgroundServices, type BackgroundService } from "@/lib/delivery/background-services";
import { envelopeSchema } from "@/lib/api/response-schemas";
import { expectKitError, expectLegacyError, seedAccount, useApiServer, type SeededAccount } from "../helpers/api-test-server";
import {
  carrierUrls,
  expectLedgerBalanced,
  setEnv,
  startTestSimulator,
  waitFor,
  waitForFinal,
  type TestSimulator,
} from "../helpers/delivery";

const { api } = useApiServer();

let acme: SeededAccount;

beforeAll(async () => {
  acme = await seedAccount({ name: "Acme", balance: 100_000_000n, senders: ["ACME"] });
});

async function sendOne(body: Record<string, unknown> = {}): Promise<string> {
  const call = await api("POST", "/api/v1/sms", {
    token: acme.token,
    body: { to: "+263771234569", from: "ACME", message: "Cancel me", ...body },
  });
  expect(call.status).toBe(202);
  return call.body.id;
}

async function releasesOf(messageId: string): Promise<number> {
  return db().ledgerEntry.count({ where: { messageId, kind: "release" } });
}

/** Claims every queued live econet message, as a dispatcher would: they are handed over. */
async function handOver(): Promise<string[]> {
  const claimed = await claimMessages({ owner: "test-dispatcher", operator: "econet", test: false, limit: 1000, leaseMs: 600_000 });
  return claimed.map((message) => message.id);
}

describe("POST /api/v1/sms/{id}/cancel", () => {
  it("cancels a queued message: failed, CANCELLED, refunded once, and answers the same when asked again", async () => {
    const before = (await db().account.findUniqueOrThrow({ where: { id: acme.accountId } })).balance;
    const id = await sendOne();
    const call = await api("POST", `/api/v1/sms/${id}/cancel`, { token: acme.token });
    expect(call.status).toBe(200);
    const sms = envelopeSchema(smsSchema).strict().parse(call.body).data;
    expect([sms.id, sms.status, sms.operator_response]).toEqual([id, "failed", "CANCELLED"]);
    expect(await releasesOf(id)).toBe(1);
    expect((await db().account.findUniqueOrThrow({ where: { id: acme.accountId } })).balance).toBe(before);

    const again = await api("POST", `/api/v1/sms/${id}/cancel`, { token: acme.token });
    expect(again.status).toBe(200);
    expect(again.body.data.operator_response).toBe("CANCELLED");
    expect(await releasesOf(id)).toBe(1);
    await expectLedgerBalanced(acme.accountId);
  });

  it("tells the send's webhook_url once: message.failed with the Sms object, CANCELLED", async () => {
    const id = await sendOne({ webhook_url: "http://127.0.0.1:9/hooks/sms" });
    expect((await api("POST", `/api/v1/sms/${id}/cancel`, { token: acme.token })).status).toBe(200);
    expect((await api("POST", `/api/v1/sms/${id}/cancel`, { token: acme.token })).status).toBe(200);
    const deliveries = await db().webhookDelivery.findMany({ where: { messageId: id } });
    expect(deliveries.map((delivery) => delivery.eventType)).toEqual(["message.failed"]);
    const payload = JSON.parse(deliveries[0].payload);
    expect([payload.type, payload.data.id, payload.data.status, payload.data.operator_response]).toEqual([
      "message.failed",
      id,
      "failed",
      "CANCELLED",
    ]);
  });

  it("says whether the cancel was this call's, for the dashboard's audit: once true, then false", async () => {
    const id = await sendOne();
    const scope = { accountId: acme.accountId, test: false };
    const first = await cancelMessage(scope, id);
    const second = await cancelMessage(scope, id);
    expect([first.cancelledNow, first.message.operatorResponse]).toEqual([true, "CANCELLED"]);
    expect([second.cancelledNow, second.message.operatorResponse]).toEqual([false, "CANCELLED"]);
  });

  it("cancels a scheduled message before its time", async () => {
    const id = await sendOne({ send_at: new Date(Date.now() + 3_600_000).toISOString(), priority: "high", validity_period: 600 });
    const read = await api("GET", `/api/v1/sms/${id}`, { token: acme.token });
    expect([read.body.data.status, read.body.data.priority, read.body.data.validity_period]).toEqual(["created", "high", 600]);
    const call = await api("POST", `/api/v1/sms/${id}/cancel`, { token: acme.token });
    expect([call.status, call.body.data.status, call.body.data.send_at]).toEqual([200, "failed", read.body.data.send_at]);
    expect(await releasesOf(id)).toBe(1);
  });

  it("answers 409 for a message a carrier already has, and changes nothing", async () => {
    const id = await sendOne();
    expect(await handOver()).toContain(id);
    const call = await api("POST", `/api/v1/sms/${id}/cancel`, { token: acme.token });
    expectLegacyError(call, 409, "ERR_CONFLICT");
    const message = await db().message.findUniqueOrThrow({ where: { id } });
    expect([message.status, message.operatorResponse]).toEqual(["processing", ""]);
    expect(await releasesOf(id)).toBe(0);
  });

  it("answers 404 for another account's message and 400 naming the id when it is not a UUID", async () => {
    const other = await seedAccount({ name: "Other", senders: ["ACME"] });
    const id = await sendOne();
    expectLegacyError(await api("POST", `/api/v1/sms/${id}/cancel`, { token: other.token }), 404, "err_not_found");
    const bad = await api("POST", "/api/v1/sms/not-a-uuid/cancel", { token: acme.token });
    expectLegacyError(bad, 400, "ERR_BAD_REQUEST");
    expect(JSON.stringify(bad.body)).toContain('"id"');
    expect((await db().message.findUniqueOrThrow({ where: { id } })).status).toBe("enqueued");
  });
});

describe("POST /api/v1/sms/bulk/{bulk_id}/cancel", () => {
  it("cancels what is still queued and counts it; a message a carrier has stays as it is", async () => {
    await handOver();
    const bulk = await api("POST", "/api/v1/sms/bulk", {
      token: acme.token,
      body: { to: ["+263771230019", "+263771230029", "+263771230039"], from: "ACME", message: "Bulk to cancel" },
    });
    expect(bulk.status).toBe(202);
    const bulkId: string = bulk.body.data.bulk_id;
    const [held] = await claimMessages({ owner: "test-dispatcher", operator: "econet", test: false, limit: 1, leaseMs: 600_000 });

    const call = await api("POST", `/api/v1/sms/bulk/${bulkId}/cancel`, { token: acme.token });
    expect(call.status).toBe(200);
    expect(envelopeSchema(bulkCancellationSchema).strict().parse(call.body).data).toEqual({
      bulk_id: bulkId,
      total: 3,
      cancelled: 2,
      not_cancelled: 1,
    });
    const messages = await db().message.findMany({ where: { bulkSendId: bulkId } });
    for (const message of messages) {
      if (message.id === held.id) expect([message.status, await releasesOf(message.id)]).toEqual(["processing", 0]);
      else expect([message.status, message.operatorResponse, await releasesOf(message.id)]).toEqual(["failed", "CANCELLED", 1]);
    }
    const again = await api("POST", `/api/v1/sms/bulk/${bulkId}/cancel`, { token: acme.token });
    expect(again.body.data).toMatchObject({ cancelled: 0, not_cancelled: 3 });
  });

  it("answers 404 for an unknown bulk send and 400 naming bulk_id when it is not a UUID", async () => {
    expectKitError(await api("POST", `/api/v1/sms/bulk/${crypto.randomUUID()}/cancel`, { token: acme.token }), 404, "NOT_FOUND");
    const bad = await api("POST", "/api/v1/sms/bulk/nope/cancel", { token: acme.token });
    expectKitError(bad, 400, "BAD_REQUEST");
    expect(JSON.stringify(bad.body)).toContain("bulk_id");
  });
});

describe("cancel against a real dispatcher", () => {
  let simulator: TestSimulator;
  let services: BackgroundService[] = [];

  beforeAll(async () => {
    simulator = await startTestSimulator({ tps: 200, dlrDelayMs: 50 });
    setEnv({ ...carrierUrls(simulator.port), SMSC_SIMULATOR_DLR_DELAY_MS: "50" });
  });

  afterAll(async () => {
    await stopBackgroundServices(services);
    await simulator?.stop();
  });

  // More than one cancel chunk (500 per transaction), so the dispatcher can claim between them.
  it("ends every message either cancelled or sent, never both, never neither", { timeout: 60_000 }, async () => {
    await handOver();
    const account = await seedAccount({ name: "Racer", balance: 100_000_000n, senders: ["ACME"] });
    const recipients = Array.from({ length: 1200 }, (_, index) => `+26377${1_000_000 + index * 10 + 9}`);
    const bulk = await api("POST", "/api/v1/sms/bulk", { token: account.token, body: { to: recipients, from: "ACME", message: "Race" } });
    expect(bulk.status).toBe(202);

    services = await startDeliveryServices(
      { dispatcher: true, simulator: false },
      { dispatcher: { pollMs: 20 }, connections: { reconnectMinMs: 50, reconnectMaxMs: 200, bindWaitMs: 200 } },
    );
    await waitFor(async () => simulator.submits.length > 0, "the first submit");
    const call = await api("POST", `/api/v1/sms/bulk/${bulk.body.data.bulk_id}/cancel`, { token: account.token });
    expect(call.status).toBe(200);

    const messages = await waitForFinal({ accountId: account.accountId, count: recipients.length });
    // A throttled submit is no handover: the message went back to the queue and could still be cancelled.
    const accepted = new Set(simulator.submits.filter((submit) => submit.messageId).map((submit) => `+${submit.destination}`));
    const releases = await db().ledgerEntry.findMany({ where: { accountId: account.accountId, kind: "release" } });
    const refunded = new Set(releases.map((entry) => entry.messageId));
    let cancelled = 0;
    for (const message of messages) {
      if (message.status === "failed") {
        expect([message.operatorResponse, accepted.has(message.to), refunded.has(message.id)]).toEqual(["CANCELLED", false, true]);
        cancelled++;
      } else {
        expect([message.status, accepted.has(message.to), refunded.has(message.id)]).toEqual(["success", true, false]);
      }
    }
    expect(cancelled).toBe(call.body.data.cancelled);
    expect(cancelled).toBeGreaterThan(0);
    expect(cancelled).toBeLessThan(recipients.length);
    expect(releases).toHaveLength(cancelled);
    await expectLedgerBalanced(account.accountId);
  });
});
