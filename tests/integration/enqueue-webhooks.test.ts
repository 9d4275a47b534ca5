// Queuing message webhooks set-wise (lib/webhooks/enqueue-webhook.ts), on each engine: one row per
// message's webhook_url and per subscribed endpoint, and an event already queued, in an earlier
// statement or earlier in the same multi-row insert, is left as it is rather than failing the
// transaction it is written in.
import { describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { parseMessageRow } from "@/lib/db/stores/shared/rows";
import { enqueueWebhooksFor } from "@/lib/webhooks/enqueue-webhook";
import { invalidateEndpointCache } from "@/lib/webhooks/account-events";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { useTestDatabase } from "../helpers/test-database";
import { createSendingAccount, send } from "../helpers/delivery";

useTestDatabase();

describe("enqueueWebhooksFor", () => {
  it("queues each event once per webhook_url and endpoint, whatever it is given twice", async () => {
    const accountId = await createSendingAccount();
    await createWebhookEndpoint({ accountId, url: "https://93.184.215.14/status", events: ["message.status"], actor: "test" });
    invalidateEndpointCache();
    const ids = await send(accountId, ["+263771112229", "+263771110009"], "Told once", { webhookUrl: "https://93.184.215.14/sms" });
    const messages = (await sql().all(`SELECT * FROM "Message" WHERE "accountId" = ?`, [accountId])).map(parseMessageRow);
    expect(messages).toHaveLength(2);
    const at = new Date();

    await sql().transaction((tx) => enqueueWebhooksFor(tx, [...messages, messages[0]], "message.failed", at));
    await sql().transaction((tx) => enqueueWebhooksFor(tx, messages, "message.failed", at));

    const urlEvents = await db().webhookDelivery.findMany({ where: { accountId, eventType: "message.failed" } });
    expect(urlEvents.map((event) => event.messageId).sort()).toEqual([...ids].sort());
    expect(urlEvents.every((event) => event.url === "https://93.184.215.14/sms")).toBe(true);
    const statusEvents = await db().webhookDelivery.findMany({
      where: { accountId, eventType: "message.status", eventKey: { endsWith: ":message.failed" } },
    });
    expect(statusEvents.map((event) => event.eventKey).sort()).toEqual(ids.map((id) => `message.status:${id}:message.failed`).sort());
  });
});
