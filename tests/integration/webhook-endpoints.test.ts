// Account webhook endpoints: the API over a real server process (kit errors naming the field, the
// secret shown once, SSRF refused), and deliveries over real HTTP to a local receiver from this
// process's dispatcher and webhook sender: message.status events of sends without a webhook_url,
// signed so that standardwebhooks verifies them; two signatures after a rotation; balance.low once
// per crossing; a URL refused at connect time.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";
import { stopBackgroundServices, type BackgroundService } from "@/lib/delivery/background-services";
import { creditBalance } from "@/lib/ledger/credit-balance";
import { emitAccountEvent } from "@/lib/webhooks/account-events";
import { createWebhookEndpoint, rotateWebhookEndpointSecret, sendTestEvent } from "@/lib/webhooks/webhook-endpoints";
import { setLowBalanceThreshold } from "@/lib/webhooks/low-balance";
import { envelopeSchema } from "@/lib/api/response-schemas";
import { webhookEndpointSchema, webhookEndpointWithSecretSchema } from "@/lib/api/webhooks/webhook-schemas";
import { z } from "zod";
import { startWebhookReceiver, type ReceivedPost, type WebhookReceiver } from "../helpers/webhook-receiver";
import { expectKitError, seedAccount, useApiServer, type SeededAccount } from "../helpers/api-test-server";
import {
  carrierUrls,
  createSendingAccount,
  send,
  SENDER,
  setEnv,
  startTestSimulator,
  waitFor,
  waitForFinal,
  type TestSimulator,
} from "../helpers/delivery";
import { acceptMessages } from "@/lib/messages/accept-messages";

// The server refuses private addresses, as in production; this process allows them for its local receiver.
const { api } = useApiServer({ WEBHOOK_ALLOW_PRIVATE: "false" });

let simulator: TestSimulator;
let services: BackgroundService[] = [];
let receiver: WebhookReceiver;
let base: string;
let received: ReceivedPost[];
let acme: SeededAccount;
let other: SeededAccount;

beforeAll(async () => {
  acme = await seedAccount({ name: "Acme" });
  other = await seedAccount({ name: "Other" });
  receiver = await startWebhookReceiver();
  ({ base, received } = receiver);
  simulator = await startTestSimulator({ dlrDelayMs: 30 });
  setEnv({ ...carrierUrls(simulator.port), WEBHOOK_ALLOW_PRIVATE: "true" });
  services = await startDeliveryServices(
    { dispatcher: true, simulator: false },
    {
      dispatcher: { pollMs: 50, queueSweepMs: 200, retryPolicy: { maxAttempts: 2, baseDelayMs: 50, maxDelayMs: 100 } },
      webhooks: { pollMs: 50, retryScheduleMs: [100, 200, 300], timeoutMs: 1000 },
    },
  );
});

afterAll(async () => {
  await stopBackgroundServices(services);
  await simulator?.stop();
  await receiver?.stop();
});

function postsTo(path: string): ReceivedPost[] {
  return received.filter((post) => post.path === path);
}

const createdEnvelope = envelopeSchema(webhookEndpointWithSecretSchema.strict()).strict();

describe("the webhook endpoint API", () => {
  it("creates an endpoint with its secret shown once, lists it without the secret, rotates and deletes it", async () => {
    const created = await api("POST", "/api/v1/webhooks", {
      token: acme.token,
      body: { url: "https://93.184.215.14/hooks", events: ["message.status", "balance.low", "message.status"] },
    });
    expect(created.status).toBe(201);
    const { data } = createdEnvelope.parse(created.body);
    expect(data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(data.events).toEqual(["message.status", "balance.low"]);
    expect(data.previous_secret_expires_at).toBeNull();
    const stored = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: data.id } });
    expect(stored.secretEnc).not.toContain(data.secret.slice(6));

    const listed = await api("GET", "/api/v1/webhooks", { token: acme.token });
    expect(listed.status).toBe(200);
    const list = envelopeSchema(z.array(webhookEndpointSchema.strict())).strict().parse(listed.body);
    expect(list.data.map((endpoint) => endpoint.id)).toEqual([data.id]);
    expect(listed.text).not.toContain("whsec_");
    const otherList = await api("GET", "/api/v1/webhooks", { token: other.token });
    expect(otherList.body.data).toEqual([]);

    const rotated = await api("POST", `/api/v1/webhooks/${data.id}/rotate`, { token: acme.token });
    expect(rotated.status).toBe(200);
    const rotation = createdEnvelope.parse(rotated.body).data;
    expect(rotation.secret).not.toBe(data.secret);
    const graceHours = (Date.parse(rotation.previous_secret_expires_at!) - Date.now()) / 3600_000;
    expect(graceHours).toBeGreaterThan(23);
    expect(graceHours).toBeLessThanOrEqual(24);

    expectKitError(await api("DELETE", `/api/v1/webhooks/${data.id}`, { token: other.token }), 404, "NOT_FOUND");
    const deleted = await api("DELETE", `/api/v1/webhooks/${data.id}`, { token: acme.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ status: "success", message: "Webhook endpoint deleted" });
    expect((await api("GET", "/api/v1/webhooks", { token: acme.token })).body.data).toEqual([]);
    expectKitError(await api("DELETE", `/api/v1/webhooks/${data.id}`, { token: acme.token }), 404, "NOT_FOUND");
    expectKitError(await api("POST", `/api/v1/webhooks/${data.id}/rotate`, { token: acme.token }), 404, "NOT_FOUND");
  });

  it.each([
    [{ events: ["message.status"] }, "url", "cannot be blank"],
    [{ url: "ftp://example.com/x", events: ["message.status"] }, "url", "must be a valid http or https URL"],
    [{ url: "http://127.0.0.1:9/hook", events: ["message.status"] }, "url", "must not point at a private"],
    [{ url: "http://169.254.169.254/latest", events: ["balance.low"] }, "url", "must not point at a private"],
    [{ url: "https://93.184.215.14/hooks" }, "events", "cannot be blank"],
    [{ url: "https://93.184.215.14/hooks", events: [] }, "events", "at least one"],
    [{ url: "https://93.184.215.14/hooks", events: ["message.status", "message.sent"] }, "events[1]", "must be one of"],
  ])("400 naming the field for %j", async (body, field, description) => {
    const call = await api("POST", "/api/v1/webhooks", { token: acme.token, body });
    expectKitError(call, 400, "VALIDATION_ERROR");
    expect(call.body.error.validation_errors).toEqual([
      expect.objectContaining({ field, description: expect.stringContaining(description) }),
    ]);
  });

  it("401 without a key, 404 for an id that is not a UUID", async () => {
    expectKitError(await api("GET", "/api/v1/webhooks"), 401, "UNAUTHORIZED");
    expectKitError(await api("DELETE", "/api/v1/webhooks/not-a-uuid", { token: acme.token }), 404, "NOT_FOUND");
  });
});

describe("endpoint deliveries", () => {
  it("delivers every status change of a send without a webhook_url as message.status, signed", async () => {
    const accountId = await createSendingAccount();
    const { secret } = await createWebhookEndpoint({ accountId, url: `${base}/status`, events: ["message.status"], actor: "test" });
    const withoutEndpoints = await createSendingAccount();
    const [quiet] = await send(withoutEndpoints, ["+263771112229"], "An account without endpoints");
    const [delivered, undelivered] = await send(accountId, ["+263771112229", "+263771110001"], "No webhook_url");
    const deliveries = await waitFor(async () => {
      const rows = await db().webhookDelivery.findMany({ where: { accountId, eventType: "message.status" } });
      return rows.length === 8 && rows.every((row) => row.status === "succeeded") && rows;
    }, "eight message.status deliveries");
    expect(deliveries.every((row) => row.messageId === null && row.endpointId !== null)).toBe(true);
    await waitFor(async () => (await db().message.findUniqueOrThrow({ where: { id: quiet } })).deliveredAt, "the other account's delivery");
    expect(await db().webhookDelivery.count({ where: { accountId: withoutEndpoints } })).toBe(0);
    const events = postsTo("/status")
      .filter((post) => deliveries.some((row) => row.id === post.headers["webhook-id"]))
      .map(
        (post) =>
          new Webhook(secret).verify(post.body, post.headers) as {
            type: string;
            data: { id: string; status: string; delivered_at: string | null };
          },
      );
    expect(events).toHaveLength(8);
    expect(events.every((event) => event.type === "message.status")).toBe(true);
    const statusesOf = (id: string) =>
      events
        .filter((event) => event.data.id === id)
        .map((event) => `${event.data.status}${event.data.delivered_at ? "+delivered" : ""}`)
        .sort();
    expect(statusesOf(delivered)).toEqual(["enqueued", "processing", "success", "success+delivered"]);
    expect(statusesOf(undelivered)).toEqual(["enqueued", "failed", "processing", "success"]);
    const wrong = `whsec_${Buffer.alloc(24, 7).toString("base64")}`;
    const [first] = postsTo("/status");
    expect(() => new Webhook(wrong).verify(first.body, first.headers)).toThrow();
  });

  it("posts the moves no carrier answers too: a scheduled send's created and enqueued, a retry's return to the queue", async () => {
    const accountId = await createSendingAccount();
    const { secret } = await createWebhookEndpoint({ accountId, url: `${base}/moves`, events: ["message.status"], actor: "test" });
    const [scheduled] = (
      await acceptMessages({
        accountId,
        from: SENDER,
        body: "Later",
        recipients: ["+263771112230"],
        actor: "test",
        mode: "live",
        kind: "single",
        sendAt: new Date(Date.now() + 1500).toISOString(),
      })
    ).messages.map((message) => message.id);
    // Ends in 0006: the simulator answers ESME_RSYSERR every time; two attempts, then it fails.
    const [retried] = await send(accountId, ["+263771110006"], "Retried");
    await waitForFinal([scheduled], { delivered: true });
    await waitForFinal([retried]);
    const sequenceOf = async (id: string, count: number) => {
      const rows = await waitFor(async () => {
        const found = await db().webhookDelivery.findMany({ where: { accountId, eventType: "message.status" }, orderBy: { id: "asc" } });
        const mine = found.filter((row) => (JSON.parse(row.payload) as { data: { id: string } }).data.id === id);
        return mine.length === count && mine.every((row) => row.status === "succeeded") && mine;
      }, `${count} events of ${id}`);
      return rows.map((row) => {
        const post = postsTo("/moves").find((candidate) => candidate.headers["webhook-id"] === row.id)!;
        const event = new Webhook(secret).verify(post.body, post.headers) as { data: { status: string; delivered_at: string | null } };
        return `${event.data.status}${event.data.delivered_at ? "+delivered" : ""}`;
      });
    };
    expect(await sequenceOf(scheduled, 5)).toEqual(["created", "enqueued", "processing", "success", "success+delivered"]);
    expect(await sequenceOf(retried, 5)).toEqual(["enqueued", "processing", "enqueued", "processing", "failed"]);
  });

  it("signs with both secrets during a rotation's grace period", async () => {
    const accountId = await createSendingAccount();
    const { endpoint, secret: oldSecret } = await createWebhookEndpoint({
      accountId,
      url: `${base}/rotated`,
      events: ["balance.low"],
      actor: "test",
    });
    const { secret: newSecret } = await rotateWebhookEndpointSecret({ accountId, id: endpoint.id, actor: "test" });
    const deliveryId = await sendTestEvent({ accountId, id: endpoint.id });
    const post = await waitFor(
      async () => postsTo("/rotated").find((entry) => entry.headers["webhook-id"] === deliveryId),
      "the test event",
    );
    const signatures = post.headers["webhook-signature"].split(" ");
    expect(signatures).toHaveLength(2);
    expect(signatures.every((signature) => signature.startsWith("v1,"))).toBe(true);
    expect(new Webhook(newSecret).verify(post.body, post.headers)).toMatchObject({ type: "test", data: { endpoint_id: endpoint.id } });
    expect(new Webhook(oldSecret).verify(post.body, post.headers)).toMatchObject({ type: "test" });
  });

  it("fires balance.low once per crossing below the threshold", async () => {
    const accountId = await createSendingAccount(1_000_000n);
    const { secret } = await createWebhookEndpoint({ accountId, url: `${base}/balance`, events: ["balance.low"], actor: "test" });
    await setLowBalanceThreshold({ accountId, threshold: 1_000_000n, actor: "test" });
    const lowEvents = () =>
      db().webhookDelivery.findMany({ where: { accountId, eventType: "balance.low" }, orderBy: { createdAt: "asc" } });
    expect(await lowEvents()).toHaveLength(0);

    await send(accountId, ["+263771110011"], "First");
    const { balance: afterFirst } = await db().account.findUniqueOrThrow({ where: { id: accountId } });
    const price = 1_000_000n - afterFirst;
    expect(price).toBeGreaterThan(0n);
    expect(await lowEvents()).toHaveLength(1);
    await send(accountId, ["+263771110012"], "Second, still below");
    expect(await lowEvents()).toHaveLength(1);

    // Back to the threshold, then below again: a second crossing.
    await creditBalance({ accountId, amount: 2n * price, actor: "test" });
    expect(await lowEvents()).toHaveLength(1);
    await send(accountId, ["+263771110013"], "Third, a new crossing");
    const events = await lowEvents();
    expect(events).toHaveLength(2);
    expect(JSON.parse(events[0].payload)).toMatchObject({
      type: "balance.low",
      data: { balance: String(afterFirst), threshold: "1000000", currency: "USD" },
    });

    const posts = await waitFor(async () => {
      const found = postsTo("/balance");
      return found.length >= 2 && found;
    }, "two balance.low posts");
    for (const post of posts) expect(new Webhook(secret).verify(post.body, post.headers)).toMatchObject({ type: "balance.low" });
  });

  it("delivers emitted events to the endpoints subscribed to their type, once per event key", async () => {
    const accountId = await createSendingAccount();
    await createWebhookEndpoint({ accountId, url: `${base}/optouts`, events: ["opt_out.changed"], actor: "test" });
    await createWebhookEndpoint({ accountId, url: `${base}/inbound`, events: ["message.received"], actor: "test" });
    const data = { number: "+263771234567", opted_out: true, source: "keyword:STOP", changed_at: new Date().toISOString() };
    expect(await emitAccountEvent(accountId, "opt_out.changed", data, { eventKey: "change-1" })).toBe(1);
    expect(await emitAccountEvent(accountId, "opt_out.changed", data, { eventKey: "change-1" })).toBe(0);
    const rows = await db().webhookDelivery.findMany({ where: { accountId } });
    expect(rows.map((row) => [row.eventType, row.url])).toEqual([["opt_out.changed", `${base}/optouts`]]);
  });

  it("refuses a URL at connect time when it points at a private address", async () => {
    const accountId = await createSendingAccount();
    const { endpoint } = await createWebhookEndpoint({ accountId, url: `${base}/private`, events: ["balance.low"], actor: "test" });
    setEnv({ WEBHOOK_ALLOW_PRIVATE: "false" });
    try {
      const deliveryId = await sendTestEvent({ accountId, id: endpoint.id });
      const delivery = await waitFor(async () => {
        const row = await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
        return row.status === "abandoned" && row;
      }, "the private delivery to be refused");
      expect(delivery.lastError).toMatch(/^refused: must not point at a private, loopback or link-local address/);
      expect(postsTo("/private")).toHaveLength(0);
    } finally {
      setEnv({ WEBHOOK_ALLOW_PRIVATE: "true" });
    }
  });
});
