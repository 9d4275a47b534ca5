// Carrier links as the operator sees and steers them, over real SMPP to a simulator the test
// controls: a carrier with no bind keeps its messages queued without consuming attempts, a paused
// carrier keeps them queued across a dispatcher restart, and each bind's state is reported.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startDeliveryServices, type DeliveryTuning } from "@/lib/delivery/start-delivery-services";
import { stopBackgroundServices, type BackgroundService } from "@/lib/delivery/background-services";
import { readCarrierOverview } from "@/lib/delivery/carrier-links";
import { pauseCarrier, resumeCarrier } from "@/lib/carriers/carrier-pauses";
import { metrics } from "@/lib/metrics";
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

const TUNING: DeliveryTuning = {
  dispatcher: {
    pollMs: 50,
    pauseCheckMs: 100,
    linkReportMs: 100,
    downAfterMs: 300,
    retryPolicy: { maxAttempts: 3, baseDelayMs: 50, maxDelayMs: 200 },
  },
  connections: { reconnectMinMs: 50, reconnectMaxMs: 200, bindWaitMs: 200 },
  receipts: { retryMs: 100 },
};

let simulator: TestSimulator;
let services: BackgroundService[] = [];

async function startDispatcher(): Promise<void> {
  services = await startDeliveryServices({ dispatcher: true, simulator: false }, TUNING);
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
});
