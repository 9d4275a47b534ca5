// A carrier that throttles: the connection is configured above the simulator's limit, so the
// simulator answers ESME_RTHROTTLED; dispatch slows down, nothing is lost or failed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";
import { STATUS } from "@/lib/smpp/command-status";
import { stopBackgroundServices, type BackgroundService } from "@/lib/delivery/background-services";
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

const SIMULATOR_TPS = 20;
let simulator: TestSimulator;
let services: BackgroundService[] = [];

beforeAll(async () => {
  simulator = await startTestSimulator({ tps: SIMULATOR_TPS });
  // The carrier is configured for five times what the SMSC accepts.
  setEnv(carrierUrls(simulator.port, `?tps=${SIMULATOR_TPS * 5}&window=20`));
  services = await startDeliveryServices(
    { dispatcher: true, simulator: false },
    { dispatcher: { pollMs: 50, retryPolicy: { maxAttempts: 12, baseDelayMs: 100, maxDelayMs: 500 } } },
  );
});

afterAll(async () => {
  await stopBackgroundServices(services);
  await simulator?.stop();
});

describe("throttling carrier", () => {
  it("slows dispatch down without losing or failing a message", async () => {
    const accountId = await createSendingAccount();
    const recipients = Array.from({ length: 60 }, (_, index) => `+26377${1_000_000 + index * 10 + 9}`);
    const ids = await send(accountId, recipients, "Throttled but delivered");
    const messages = await waitForFinal(ids, { delivered: true, timeoutMs: 60_000 });
    expect(messages.every((message) => message.status === "success" && message.deliveredAt)).toBe(true);
    const throttled = simulator.submits.filter((submit) => submit.status === STATUS.ESME_RTHROTTLED);
    const accepted = simulator.submits.filter((submit) => submit.status === STATUS.ESME_ROK);
    expect(throttled.length).toBeGreaterThan(0);
    // Each recipient accepted exactly once: a throttled submit is not a delivery.
    expect(new Set(accepted.map((submit) => submit.destination)).size).toBe(recipients.length);
    expect(accepted).toHaveLength(recipients.length);
    await expectLedgerBalanced(accountId);
  });

  it("retries a recipient the carrier throttles once (…0004) and delivers it", async () => {
    const accountId = await createSendingAccount();
    const [id] = await send(accountId, ["+263774440004"], "Once throttled");
    const [message] = await waitForFinal([id], { delivered: true });
    expect(message).toMatchObject({ status: "success", operatorResponse: "DELIVRD", attempts: 1 });
    // Throttled first (the magic number; the TPS limit may add more), accepted once at the end.
    const statuses = simulator.submits.filter((submit) => submit.destination === "263774440004").map((submit) => submit.status);
    expect(statuses[0]).toBe(STATUS.ESME_RTHROTTLED);
    expect(statuses.filter((status) => status === STATUS.ESME_ROK)).toHaveLength(1);
    expect(statuses.at(-1)).toBe(STATUS.ESME_ROK);
  });
});
