// Delivery tests: an SMSC simulator owned by the test (so it can see every submit_sm), carriers
// pointed at it, funded accounts, sends through the real acceptMessages, waiting for final states
// and checking the ledger.
import { expect } from "vitest";
import { createAccount } from "@/lib/accounts/create-account";
import { db } from "@/lib/db/client";
import { resetEnvForTests } from "@/lib/env";
import type { DeliveryTuning } from "@/lib/delivery/start-delivery-services";
import { logger } from "@/lib/log";
import { acceptMessages } from "@/lib/messages/accept-messages";
import { operators } from "@/lib/carriers/operators";
import { SIMULATOR_PASSWORD } from "@/lib/smpp/carrier-config";
import { startSmscSimulator, type SimulatedSubmit, type SmscSimulator } from "@/lib/smsc/smsc-simulator";

export const SENDER = "TUMIRA";

/** at: when the simulator answered it (performance.now()). */
export type TestSimulator = SmscSimulator & { submits: (SimulatedSubmit & { at: number })[] };

export async function startTestSimulator(
  options: { tps?: number; dlrDelayMs?: number; secondPort?: boolean } = {},
): Promise<TestSimulator> {
  const submits: TestSimulator["submits"] = [];
  const simulator = await startSmscSimulator({
    port: 0,
    ...(options.secondPort ? { secondPort: 0 } : {}),
    tps: options.tps ?? 1000,
    dlrDelayMs: options.dlrDelayMs ?? 50,
    logger,
    onSubmit: (submit) => submits.push({ ...submit, at: performance.now() }),
  });
  return { ...simulator, submits };
}

/** SMPP_<CARRIER> URLs for the three carriers on a simulator. */
export function carrierUrls(port: number, query = ""): Record<string, string> {
  return Object.fromEntries(
    operators.map((operator) => [`SMPP_${operator.toUpperCase()}`, `smpp://${operator}:${SIMULATOR_PASSWORD}@127.0.0.1:${port}${query}`]),
  );
}

/** Sets environment variables for this test process and forgets the parsed configuration. */
export function setEnv(values: Record<string, string>): void {
  Object.assign(process.env, values);
  resetEnvForTests();
}

export async function createSendingAccount(balance = 1_000_000n, name = "Sender"): Promise<string> {
  const account = await createAccount({ name, currency: "USD", openingBalance: balance, senders: [SENDER], actor: "test" });
  return account.id;
}

export async function send(
  accountId: string,
  recipients: string[],
  body: string,
  options: { webhookUrl?: string; test?: boolean; priority?: "normal" | "high" } = {},
): Promise<string[]> {
  const accepted = await acceptMessages({
    accountId,
    from: SENDER,
    body,
    recipients,
    webhookUrl: options.webhookUrl ?? null,
    actor: "test",
    mode: options.test ? "test" : "live",
    kind: recipients.length === 1 ? "single" : "bulk",
    priority: options.priority,
  });
  return accepted.messages.map((message) => message.id);
}

export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Resolves with the messages (given by id, or all of an account's) once every one is failed, or
 * success with (when asked) delivered_at set.
 */
export async function waitForFinal(
  scope: string[] | { accountId: string; count: number },
  options: { delivered?: boolean; timeoutMs?: number } = {},
) {
  const where = Array.isArray(scope) ? { id: { in: scope } } : { accountId: scope.accountId };
  const count = Array.isArray(scope) ? scope.length : scope.count;
  const final = { OR: [{ status: "failed" }, { status: "success", ...(options.delivered ? { deliveredAt: { not: null } } : {}) }] };
  await waitFor(
    async () => (await db().message.count({ where: { ...where, ...final } })) === count,
    `${count} message(s) to reach a final state`,
    options.timeoutMs,
  );
  return db().message.findMany({ where });
}

/** The balance equals the ledger's sum, every message is held at most once and released at most once. */
export async function expectLedgerBalanced(accountId: string): Promise<void> {
  const account = await db().account.findUniqueOrThrow({ where: { id: accountId } });
  const entries = await db().ledgerEntry.findMany({ where: { accountId } });
  expect(entries.reduce((sum, entry) => sum + entry.amount, 0n)).toBe(account.balance);
  const perMessage = new Map<string, number>();
  for (const entry of entries)
    if (entry.messageId) perMessage.set(`${entry.messageId}:${entry.kind}`, (perMessage.get(`${entry.messageId}:${entry.kind}`) ?? 0) + 1);
  expect([...perMessage.values()].every((count) => count === 1)).toBe(true);
}

/** Delivery services that notice binds, pauses and reports within a tenth of a second, for the carrier-link tests. */
export const LINK_TEST_TUNING: DeliveryTuning = {
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
