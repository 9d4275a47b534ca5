// Cancelling over real HTTP: POST /api/v1/sms/{id}/cancel and POST /api/v1/sms/bulk/{bulk_id}/cancel
// against a server process. A message no carrier has yet (scheduled or queued) ends failed with
// CANCELLED and exactly one refund; one a dispatcher holds, or one queued again after a submit got
// no clear answer (a carrier may have it), answers 409 and nothing changes; a bulk cancel counts what
// it cancelled. Racing a bulk cancel against a real dispatcher over SMPP, every
// message ends either cancelled (never submitted) or sent (never refunded), none both, none neither.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { smsSchema } from "@/lib/messages/serialize-sms";
import { bulkCancellationSchema } from "@/lib/api/sms/sms-schemas";
import { claimMessages, releaseLeases, requeueExpiredLeases } from "@/lib/delivery/claim-messages";
import { recordDispatchOutcomes } from "@/lib/delivery/record-dispatch-outcomes";
import { DEFAULT_RETRY_POLICY } from "@/lib/delivery/retry-policy";
import type { SubmitOutcome } from "@/lib/smpp/carrier-connection";
import { cancelMessage } from "@/lib/messages/cancel-messages";
import { getBulkReport } from "@/lib/dashboard/get-bulk-report";
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
import { testDatabaseKind } from "../helpers/test-database";

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

describe("a message a carrier may have", () => {
  const UNANSWERED = "unanswered-dispatcher";
  /** Claims the message (and whatever else is queued) and records `result` as its submit's outcome. */
  async function submitWithOutcome(id: string, result: SubmitOutcome): Promise<void> {
    const claimed = await claimMessages({ owner: UNANSWERED, operator: "econet", test: false, limit: 1000, leaseMs: 600_000 });
    const message = claimed.find((candidate) => candidate.id === id);
    if (!message) throw new Error(`${id} was not claimed`);
    const { recorded } = await recordDispatchOutcomes(
      [{ message, owner: UNANSWERED, startedAt: new Date(), result }],
      DEFAULT_RETRY_POLICY,
    );
    expect(recorded).toBe(1);
  }

  const temporary = { kind: "rejected", temporary: true, response: "answer" } as const;
  const outcomes: Array<[string, SubmitOutcome, "may have it" | "does not have it"]> = [
    ["the bind dropped before the answer", { ...temporary, carrierStatus: null, bindLost: true }, "may have it"],
    ["no answer in time", { ...temporary, carrierStatus: null }, "may have it"],
    ["a part accepted, the next refused", { ...temporary, carrierStatus: 0x58, partlyAccepted: true }, "may have it"],
    ["the first part refused, throttled", { ...temporary, carrierStatus: 0x58 }, "does not have it"],
    ["no bind to submit it over", { ...temporary, carrierStatus: null, notSent: true }, "does not have it"],
  ];

  for (const [what, result, carrier] of outcomes) {
    it(`after ${what}, the carrier ${carrier}: ${carrier === "may have it" ? "409, nothing changes" : "cancelled"}`, async () => {
      await handOver();
      const id = await sendOne();
      await submitWithOutcome(id, result);
      expect((await db().message.findUniqueOrThrow({ where: { id } })).status).toBe("enqueued");

      const call = await api("POST", `/api/v1/sms/${id}/cancel`, { token: acme.token });
      const message = await db().message.findUniqueOrThrow({ where: { id } });
      if (carrier === "may have it") {
        expectLegacyError(call, 409, "ERR_CONFLICT");
        expect(JSON.stringify(call.body)).toContain("may already be with a carrier");
        expect([message.status, message.mayBeAtCarrier, await releasesOf(id)]).toEqual(["enqueued", true, 0]);
      } else {
        expect(call.status).toBe(200);
        expect([message.status, message.operatorResponse, await releasesOf(id)]).toEqual(["failed", "CANCELLED", 1]);
      }
      await expectLedgerBalanced(acme.accountId);
    });
  }

  it("after an expired lease or a stop with submits in flight, the carrier may have it; after a clean stop it does not", async () => {
    await handOver();
    await Promise.all([sendOne(), sendOne(), sendOne()]);
    const claimOne = async (owner: string, leaseMs: number) =>
      (await claimMessages({ owner, operator: "econet", test: false, limit: 1, leaseMs }))[0].id;
    const expired = await claimOne("died", 1_000);
    const inFlight = await claimOne("stopped-in-flight", 600_000);
    const clean = await claimOne("stopped-cleanly", 600_000);
    expect(await requeueExpiredLeases(new Date(Date.now() + 5_000))).toBe(1);
    expect(await releaseLeases("stopped-in-flight", { submitsInFlight: true })).toBe(1);
    expect(await releaseLeases("stopped-cleanly")).toBe(1);

    const status = async (id: string) => (await api("POST", `/api/v1/sms/${id}/cancel`, { token: acme.token })).status;
    expect([await status(expired), await status(inFlight), await status(clean)]).toEqual([409, 409, 200]);
    expect([await releasesOf(expired), await releasesOf(inFlight), await releasesOf(clean)]).toEqual([0, 0, 1]);
  });

  // PostgreSQL only: SQLite's one writer runs the cancel's choice and its update with no write between.
  it.skipIf(testDatabaseKind() !== "postgres")(
    "is not cancelled when it came back to the queue unanswered after the cancel chose it",
    async () => {
      const id = await sendOne();
      const { cancel } = await sql().transaction(async (tx) => {
        // A dispatcher's claim holds the row: the cancel chooses the message (the claim is not yet
        // committed) and its update waits for the row.
        await tx.run(`UPDATE "Message" SET "status" = 'processing' WHERE "id" = ?`, [id]);
        const call = api("POST", `/api/v1/sms/${id}/cancel`, { token: acme.token });
        const waiting = `SELECT "pid" FROM pg_stat_activity WHERE "datname" = current_database() AND "wait_event_type" = 'Lock' AND "query" LIKE 'UPDATE "Message"%'`;
        while ((await sql().all(waiting)).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        // Its submit got no answer: back in the queue, a carrier may have it.
        await tx.run(`UPDATE "Message" SET "status" = 'enqueued', "mayBeAtCarrier" = TRUE WHERE "id" = ?`, [id]);
        return { cancel: call };
      });
      const call = await cancel;
      expectLegacyError(call, 409, "ERR_CONFLICT");
      const message = await db().message.findUniqueOrThrow({ where: { id } });
      expect([message.status, message.mayBeAtCarrier, await releasesOf(id)]).toEqual(["enqueued", true, 0]);
      await expectLedgerBalanced(acme.accountId);
    },
  );

  it("is counted as not cancelled by a bulk cancel, nor offered to the bulk report's cancel, and stays queued", async () => {
    await handOver();
    const bulk = await api("POST", "/api/v1/sms/bulk", {
      token: acme.token,
      body: { to: ["+263771230049", "+263771230059"], from: "ACME", message: "Bulk with one unanswered" },
    });
    const bulkId: string = bulk.body.data.bulk_id;
    const [first] = await db().message.findMany({ where: { bulkSendId: bulkId }, orderBy: { id: "asc" } });
    await submitWithOutcome(first.id, { ...temporary, carrierStatus: null, bindLost: true });
    // The claim above took both; the other goes back as a clean stop would leave it.
    await releaseLeases(UNANSWERED);
    // Both read as queued; the report's cancel offers only the one it can cancel.
    const report = await getBulkReport(bulkId, { accountId: acme.accountId, test: false });
    expect([report.counts.queued, report.cancellable]).toEqual([2, 1]);

    const call = await api("POST", `/api/v1/sms/bulk/${bulkId}/cancel`, { token: acme.token });
    expect(call.body.data).toMatchObject({ total: 2, cancelled: 1, not_cancelled: 1 });
    expect((await getBulkReport(bulkId, { accountId: acme.accountId, test: false })).cancellable).toBe(0);
    const unanswered = await db().message.findUniqueOrThrow({ where: { id: first.id } });
    expect([unanswered.status, await releasesOf(first.id)]).toEqual(["enqueued", 0]);
    await expectLedgerBalanced(acme.accountId);
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

  it("tells each cancelled message's webhook_url and each status endpoint exactly once, across several chunks", async () => {
    const account = await seedAccount({ name: "Hooked", balance: 100_000_000n, senders: ["ACME"] });
    // Through the API: the server process drops its endpoint cache at once.
    const endpoint = await api("POST", "/api/v1/webhooks", {
      token: account.token,
      body: { url: "https://93.184.215.14/hooks", events: ["message.status"] },
    });
    expect(endpoint.status).toBe(201);
    const to = Array.from({ length: 1_100 }, (_, index) => `+26377${String(3_000_000 + index).padStart(7, "0")}`);
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const bulk = await api("POST", "/api/v1/sms/bulk", {
      token: account.token,
      body: { to, from: "ACME", message: "Hooked bulk", webhook_url: "https://93.184.215.14/sms", send_at: sendAt },
    });
    expect(bulk.status).toBe(202);
    const bulkId: string = bulk.body.data.bulk_id;
    const cancel = await api("POST", `/api/v1/sms/bulk/${bulkId}/cancel`, { token: account.token });
    expect(cancel.body.data).toMatchObject({ total: 1_100, cancelled: 1_100, not_cancelled: 0 });
    expect((await api("POST", `/api/v1/sms/bulk/${bulkId}/cancel`, { token: account.token })).body.data.cancelled).toBe(0);

    const failedEvents = await db().webhookDelivery.findMany({
      where: { accountId: account.accountId, eventType: "message.failed" },
      select: { messageId: true, url: true, payload: true },
    });
    expect(failedEvents).toHaveLength(1_100);
    expect(new Set(failedEvents.map((event) => event.messageId)).size).toBe(1_100);
    expect(failedEvents.every((event) => event.url === "https://93.184.215.14/sms")).toBe(true);
    expect(JSON.parse(failedEvents[0].payload).data).toMatchObject({ status: "failed", operator_response: "CANCELLED" });
    const statusEvents = await db().webhookDelivery.findMany({
      where: { accountId: account.accountId, eventType: "message.status", eventKey: { endsWith: ":message.failed" } },
      select: { eventKey: true },
    });
    expect(statusEvents).toHaveLength(1_100);
    expect(new Set(statusEvents.map((event) => event.eventKey)).size).toBe(1_100);
    await expectLedgerBalanced(account.accountId);
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

  /** Makes the database refuse the carrier's acceptance of the account's messages, as a lost connection would. */
  async function refuseAcceptances(accountId: string): Promise<() => Promise<void>> {
    if (testDatabaseKind() === "sqlite") {
      await sql().exec(
        `CREATE TRIGGER "refuse_acceptances" BEFORE UPDATE ON "Message" WHEN NEW."accountId" = '${accountId}' AND NEW."status" = 'success'
         BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
      );
      return () => sql().exec(`DROP TRIGGER "refuse_acceptances"`);
    }
    await sql().exec(
      `CREATE FUNCTION "refuse_acceptances"() RETURNS trigger AS $$ BEGIN
         IF NEW."accountId" = '${accountId}' AND NEW."status" = 'success' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql;
       CREATE TRIGGER "refuse_acceptances" BEFORE UPDATE ON "Message" FOR EACH ROW EXECUTE FUNCTION "refuse_acceptances"()`,
    );
    return () => sql().exec(`DROP TRIGGER "refuse_acceptances" ON "Message"; DROP FUNCTION "refuse_acceptances"()`);
  }

  it("keeps a message whose accepted submit could not be recorded out of a cancel after the dispatcher stops", async () => {
    // This test's dispatcher alone, so the stop below is the one holding the claim.
    await stopBackgroundServices(services);
    services = [];
    await handOver();
    const account = await seedAccount({ name: "Unrecorded", balance: 100_000_000n, senders: ["ACME"] });
    const sent = await api("POST", "/api/v1/sms", {
      token: account.token,
      body: { to: "+263771239879", from: "ACME", message: "Accepted, never recorded" },
    });
    expect(sent.status).toBe(202);
    const allowAcceptances = await refuseAcceptances(account.accountId);
    try {
      const dispatcher = await startDeliveryServices(
        { dispatcher: true, simulator: false },
        { dispatcher: { pollMs: 20 }, connections: { reconnectMinMs: 50, reconnectMaxMs: 200, bindWaitMs: 200 } },
      );
      await waitFor(
        async () => simulator.submits.some((submit) => submit.destination === "263771239879" && submit.messageId),
        "the carrier's acceptance",
      );
      // The stop waits for the dispatch, which gives up writing the answer, then releases its claim.
      await stopBackgroundServices(dispatcher);
    } finally {
      await allowAcceptances();
    }
    const queued = await db().message.findUniqueOrThrow({ where: { id: sent.body.id } });
    expect([queued.status, queued.mayBeAtCarrier]).toEqual(["enqueued", true]);
    expectLegacyError(await api("POST", `/api/v1/sms/${queued.id}/cancel`, { token: account.token }), 409, "ERR_CONFLICT");
    expect(await releasesOf(queued.id)).toBe(0);
    await expectLedgerBalanced(account.accountId);
  });
});
