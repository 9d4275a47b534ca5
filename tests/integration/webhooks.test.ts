// Webhooks over real HTTP (the 1 s attempt timeout leaves room for a loaded machine: the receiver
// shares this process): a local receiver verifies every POST with the standardwebhooks package,
// sees each event once per successful delivery, gets retries after failures, stops on 410, and a
// URL on a private address is refused at delivery time when private addresses are not allowed.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";
import { stopBackgroundServices, type BackgroundService } from "@/lib/delivery/background-services";
import { getWebhookSecret, revealWebhookSecret, rotateWebhookSecret } from "@/lib/webhooks/webhook-secret";
import { redeliverWebhook } from "@/lib/webhooks/redeliver-webhook";
import { useTestDatabase } from "../helpers/test-database";
import { startWebhookReceiver, type ReceivedPost, type WebhookReceiver } from "../helpers/webhook-receiver";
import { carrierUrls, createSendingAccount, send, setEnv, startTestSimulator, waitFor, type TestSimulator } from "../helpers/delivery";

useTestDatabase();

let simulator: TestSimulator;
let services: BackgroundService[] = [];
let receiver: WebhookReceiver;
let base: string;
let received: ReceivedPost[];
const failuresLeft = new Map<string, number>([["/flaky", 2]]);

beforeAll(async () => {
  receiver = await startWebhookReceiver(({ path }, response) => {
    if (path === "/slow") return true; // never answers: the sender's timeout ends the attempt
    if (path === "/gone" || path === "/gone-together") {
      response.writeHead(410).end();
      return true;
    }
    const failures = failuresLeft.get(path) ?? 0;
    if (failures === 0) return false;
    failuresLeft.set(path, failures - 1);
    response.writeHead(500).end("try later");
    return true;
  });
  ({ base, received } = receiver);
  simulator = await startTestSimulator({ dlrDelayMs: 30 });
  setEnv({ ...carrierUrls(simulator.port), WEBHOOK_ALLOW_PRIVATE: "true" });
  services = await startDeliveryServices(
    { dispatcher: true, simulator: false },
    { dispatcher: { pollMs: 50 }, webhooks: { pollMs: 50, retryScheduleMs: [100, 200, 300], timeoutMs: 1000 } },
  );
});

afterAll(async () => {
  await stopBackgroundServices(services);
  await simulator?.stop();
  await receiver?.stop();
});

function deliveriesOf(messageIds: string[]) {
  return db().webhookDelivery.findMany({ where: { messageId: { in: messageIds } }, include: { attemptLog: { orderBy: { id: "asc" } } } });
}

describe("webhooks", () => {
  it("posts every status change once, signed so that standardwebhooks verifies it", async () => {
    const accountId = await createSendingAccount();
    const ids = await send(accountId, ["+263771112229", "+263771110001"], "With a webhook", { webhookUrl: `${base}/ok` });
    const deliveries = await waitFor(async () => {
      const rows = await deliveriesOf(ids);
      return rows.length === 4 && rows.every((row) => row.status === "succeeded") && rows;
    }, "four succeeded deliveries");
    const secret = await getWebhookSecret(accountId);
    const posts = received.filter((post) => post.path === "/ok" && ids.some((id) => post.body.includes(id)));
    expect(posts).toHaveLength(4);
    const events = posts.map((post) => {
      const payload = new Webhook(secret).verify(post.body, post.headers) as {
        type: string;
        timestamp: string;
        data: { id: string; status: string; delivered_at: string | null; operator_response: string };
      };
      expect(post.headers["content-type"]).toBe("application/json");
      expect(deliveries.some((delivery) => delivery.id === post.headers["webhook-id"])).toBe(true);
      return payload;
    });
    const delivered = ids[0];
    const undelivered = ids[1];
    const typesOf = (id: string) =>
      events
        .filter((event) => event.data.id === id)
        .map((event) => event.type)
        .sort();
    expect(typesOf(delivered)).toEqual(["message.delivered", "message.success"]);
    expect(typesOf(undelivered)).toEqual(["message.failed", "message.success"]);
    const deliveredEvent = events.find((event) => event.type === "message.delivered")!;
    expect(deliveredEvent.data).toMatchObject({ id: delivered, status: "success", operator_response: "DELIVRD" });
    expect(deliveredEvent.data.delivered_at).not.toBeNull();
    expect(events.find((event) => event.type === "message.failed")!.data).toMatchObject({
      status: "failed",
      operator_response: "UNDELIV",
      delivered_at: null,
    });
    // A wrong secret does not verify: the signature means something.
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 1).toString("base64")}`).verify(posts[0].body, posts[0].headers)).toThrow();
    for (const delivery of deliveries) {
      expect(delivery.attemptLog).toHaveLength(1);
      expect(delivery.attemptLog[0]).toMatchObject({ statusCode: 204, error: null });
      expect(delivery.attemptLog[0].latencyMs).toBeGreaterThanOrEqual(0);
    }
  });

  it("retries a receiver that fails, until it recovers, with the same webhook-id", async () => {
    const accountId = await createSendingAccount();
    const [id] = await send(accountId, ["+263771110003"], "Flaky receiver", { webhookUrl: `${base}/flaky` });
    const [delivery] = await waitFor(async () => {
      const rows = await deliveriesOf([id]);
      return rows[0]?.status === "succeeded" && rows;
    }, "the flaky delivery to succeed");
    expect(delivery.eventType).toBe("message.success");
    expect(delivery.attempts).toBe(3);
    expect(delivery.attemptLog.map((attempt) => attempt.statusCode)).toEqual([500, 500, 204]);
    expect(delivery.attemptLog[0].error).toBe("HTTP 500");
    const posts = received.filter((post) => post.path === "/flaky");
    expect(posts).toHaveLength(3);
    expect(new Set(posts.map((post) => post.headers["webhook-id"]))).toEqual(new Set([delivery.id]));

    await redeliverWebhook(delivery.id, { accountId, actor: "user:redeliverer" });
    await waitFor(async () => (await db().webhookAttempt.count({ where: { deliveryId: delivery.id } })) === 4, "the redelivery");
    expect(received.filter((post) => post.path === "/flaky")).toHaveLength(4);
    await expect(redeliverWebhook(delivery.id, { accountId: crypto.randomUUID(), actor: "user:intruder" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    // The redelivery is audited under who asked, whichever page's button it was; the refused one is not.
    const audited = await db().auditEvent.findMany({ where: { action: "webhook.redelivered", targetId: delivery.id } });
    expect(audited).toEqual([expect.objectContaining({ accountId, actor: "user:redeliverer", targetType: "webhook_delivery" })]);
  });

  it("stops at 410 Gone and gives up after the schedule on timeouts", async () => {
    const accountId = await createSendingAccount();
    const [goneId] = await send(accountId, ["+263771110003"], "Gone", { webhookUrl: `${base}/gone` });
    const [slowId] = await send(accountId, ["+263771110003"], "Slow", { webhookUrl: `${base}/slow` });
    const [gone] = await waitFor(async () => {
      const rows = await deliveriesOf([goneId]);
      return rows[0]?.status === "abandoned" && rows;
    }, "the 410 delivery to be abandoned");
    expect(gone.attemptLog.map((attempt) => attempt.statusCode)).toEqual([410]);
    const [slow] = await waitFor(
      async () => {
        const rows = await deliveriesOf([slowId]);
        return rows[0]?.status === "failed" && rows;
      },
      "the slow delivery to fail",
      20_000,
    );
    expect(slow.attempts).toBe(4);
    expect(slow.attemptLog.every((attempt) => attempt.statusCode === null && attempt.error === "no response within 1000 ms")).toBe(true);
    expect(received.filter((post) => post.path === "/gone")).toHaveLength(1);
  });

  it("records every attempt when an endpoint answers 410 to several deliveries at once", async () => {
    const accountId = await createSendingAccount();
    const recipients = Array.from({ length: 12 }, (_, index) => `+2637715550${10 + index}`);
    const ids = await send(accountId, recipients, "Gone together", { webhookUrl: `${base}/gone-together` });
    await waitFor(
      async () => (await db().message.count({ where: { id: { in: ids }, deliveredAt: { not: null } } })) === ids.length,
      "the receipts",
    );
    const deliveries = await waitFor(async () => {
      const rows = await deliveriesOf(ids);
      return rows.length > 0 && rows.every((row) => row.status === "abandoned") && rows;
    }, "every delivery to be abandoned");
    const posts = received.filter((post) => post.path === "/gone-together");
    // Each POST the endpoint answered is in the attempt log of its delivery, and nothing else is.
    expect(deliveries.reduce((sum, row) => sum + row.attemptLog.length, 0)).toBe(posts.length);
    expect(deliveries.every((row) => row.attempts === row.attemptLog.length)).toBe(true);
    expect(deliveries.flatMap((row) => row.attemptLog).every((attempt) => attempt.statusCode === 410)).toBe(true);
    expect(posts.length).toBeGreaterThan(0);
  });

  it("refuses a private address at delivery time when private addresses are not allowed", async () => {
    const accountId = await createSendingAccount();
    const [id] = await send(accountId, ["+263771110003"], "Rebound", { webhookUrl: `${base}/private` });
    setEnv({ WEBHOOK_ALLOW_PRIVATE: "false" }); // as if the host now resolved to a private address
    try {
      const [delivery] = await waitFor(async () => {
        const rows = await deliveriesOf([id]);
        return rows[0]?.status === "abandoned" && rows;
      }, "the private delivery to be refused");
      expect(delivery.lastError).toMatch(/^refused: must not point at a private, loopback or link-local address/);
      expect(delivery.attemptLog).toHaveLength(1);
      expect(received.filter((post) => post.path === "/private")).toHaveLength(0);
    } finally {
      setEnv({ WEBHOOK_ALLOW_PRIVATE: "true" });
    }
  });

  it("keeps one secret per account, encrypted at rest, replaced by rotation", async () => {
    const accountId = await createSendingAccount();
    const secrets = await Promise.all(Array.from({ length: 5 }, () => getWebhookSecret(accountId)));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const stored = await db().account.findUniqueOrThrow({ where: { id: accountId } });
    expect(stored.webhookSecretEnc).not.toContain(secrets[0].slice(6));
    const rotated = await rotateWebhookSecret(accountId, "user:test");
    expect(rotated).not.toBe(secrets[0]);
    expect(await getWebhookSecret(accountId)).toBe(rotated);
    expect(await db().auditEvent.count({ where: { accountId, action: "webhook_secret.rotated" } })).toBe(1);
  });

  it("records each reveal of the secret as an audit event naming who asked, never the secret", async () => {
    const accountId = await createSendingAccount();
    const secret = await revealWebhookSecret(accountId, "user:owner");
    expect(secret).toBe(await getWebhookSecret(accountId));
    expect(await revealWebhookSecret(accountId, "user:owner")).toBe(secret);
    const reveals = await db().auditEvent.findMany({ where: { accountId, action: "webhook_secret.revealed" } });
    expect(reveals.map((event) => [event.actor, event.targetId])).toEqual([
      ["user:owner", accountId],
      ["user:owner", accountId],
    ]);
    expect(reveals.every((event) => !event.data.includes(secret.slice(6)))).toBe(true);
    await expect(revealWebhookSecret(crypto.randomUUID(), "user:owner")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
