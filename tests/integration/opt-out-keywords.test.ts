// Opt-out keywords over real SMPP: a reply of STOP to an account's number puts the sender on the
// account's opt-out list and START takes it off; the account's webhook endpoints get the inbound
// message (message.received) and each change (opt_out.changed), signed.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";
import { stopBackgroundServices, type BackgroundService } from "@/lib/delivery/background-services";
import { assignInboundNumber } from "@/lib/inbound/inbound-numbers";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { inboundMessageSchema } from "@/lib/inbound/serialize-inbound";
import { useTestDatabase } from "../helpers/test-database";
import { startWebhookReceiver, type ReceivedPost, type WebhookReceiver } from "../helpers/webhook-receiver";
import { carrierUrls, createSendingAccount, setEnv, startTestSimulator, waitFor, type TestSimulator } from "../helpers/delivery";

useTestDatabase();

let simulator: TestSimulator;
let services: BackgroundService[] = [];
let receiver: WebhookReceiver;
let base: string;
let received: ReceivedPost[];

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  ({ base, received } = receiver);
  simulator = await startTestSimulator();
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

const SENDER = "+263771112233";
const NUMBER = "+263780000201";

/** The events the endpoint has received so far, verified against the endpoint's secret. */
function eventsVerifiedWith(secret: string): Array<{ type: string; data: Record<string, unknown> }> {
  const webhook = new Webhook(secret);
  return received.map(({ headers, body }) => webhook.verify(body, headers) as { type: string; data: Record<string, unknown> });
}

function originate(message: string): void {
  simulator.originate({ systemId: "econet", from: SENDER, to: NUMBER, message });
}

describe("opt-out keywords in inbound messages", () => {
  it("adds the sender on STOP and removes it on START, ignores a sentence, and tells the endpoint of each", async () => {
    const accountId = await createSendingAccount();
    await assignInboundNumber({ accountId, number: NUMBER, operator: null, actor: "test" });
    const { secret } = await createWebhookEndpoint({
      accountId,
      url: `${base}/keywords`,
      events: ["message.received", "opt_out.changed"],
      actor: "test",
    });

    originate(" Stop. ");
    const added = await waitFor(() => db().optOut.findFirst({ where: { accountId, number: SENDER } }), "the opt-out");
    expect(added.actor).toBe("keyword:STOP");
    await waitFor(async () => received.length >= 2, "two events");
    const afterStop = eventsVerifiedWith(secret);
    expect(afterStop.map((event) => event.type).sort()).toEqual(["message.received", "opt_out.changed"]);
    const receivedData = afterStop.find((event) => event.type === "message.received")!.data;
    // The InboundMessage object of GET /api/v1/inbound/{id}, field for field.
    expect(receivedData).toEqual(inboundMessageSchema.strict().parse(receivedData));
    expect(receivedData).toMatchObject({
      from: SENDER,
      to: NUMBER,
      message: " Stop. ",
      operator: "econet",
      encoding: "gsm7",
      segments: 1,
      complete: true,
    });
    expect(afterStop.find((event) => event.type === "opt_out.changed")!.data).toMatchObject({
      number: SENDER,
      opted_out: true,
      source: "keyword:STOP",
    });

    originate("please stop sending me these");
    await waitFor(async () => received.length >= 3, "the sentence's message.received");
    expect(eventsVerifiedWith(secret)[2].type).toBe("message.received");
    expect(await db().optOut.count({ where: { accountId } })).toBe(1);

    originate("start");
    await waitFor(async () => (await db().optOut.count({ where: { accountId, number: SENDER } })) === 0, "the removal");
    await waitFor(async () => received.length >= 5, "START's two events");
    const removal = eventsVerifiedWith(secret).find((event) => event.type === "opt_out.changed" && event.data.opted_out === false);
    expect(removal?.data).toMatchObject({ number: SENDER, source: "keyword:START" });
    const actions = await db().auditEvent.findMany({ where: { accountId, targetType: "opt_out" }, orderBy: { id: "asc" } });
    expect(actions.map((event) => [event.action, event.actor])).toEqual([
      ["opt_out.added", "keyword:STOP"],
      ["opt_out.removed", "keyword:START"],
    ]);
  });

  it("reads STOP followed by an emoji made of several characters, sent in UCS-2", async () => {
    const accountId = await createSendingAccount();
    const number = "+263780000202";
    const handset = "+263771112244";
    await assignInboundNumber({ accountId, number, operator: null, actor: "test" });

    simulator.originate({ systemId: "econet", from: handset, to: number, message: "STOP ⛔️" });
    const stored = await waitFor(() => db().inboundMessage.findFirst({ where: { accountId, from: handset } }), "the message");
    expect(stored).toMatchObject({ body: "STOP ⛔️", encoding: "ucs2" });
    const added = await waitFor(() => db().optOut.findFirst({ where: { accountId, number: handset } }), "the opt-out");
    expect(added.actor).toBe("keyword:STOP");
  });
});
