// Money under concurrency, over HTTP: 200 single sends at once against a balance that covers exactly
// 120 of them. Group commit puts many of them in one transaction; each is still held on its own.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { expectLegacyError, seedAccount, useApiServer } from "../helpers/api-test-server";

const { api } = useApiServer({ RATE_LIMIT_PER_SECOND: "100000" });

const ECONET = 350n;

describe("concurrent single sends", () => {
  it("accepts exactly as many as the balance covers: 120 × 202, 80 × 422, balance 0, ledger sum = balance", async () => {
    const account = await seedAccount({ name: "Race", balance: 120n * ECONET, senders: ["RACE"] });
    const calls = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        api("POST", "/api/v1/sms", { token: account.token, body: { to: `+26377${String(3000000 + i)}`, message: "race", from: "RACE" } }),
      ),
    );
    const accepted = calls.filter((call) => call.status === 202);
    const refused = calls.filter((call) => call.status !== 202);
    expect(accepted).toHaveLength(120);
    expect(refused).toHaveLength(80);
    for (const call of refused) expectLegacyError(call, 422, "ERR_INSUFFICIENT_BALANCE");

    const stored = await db().account.findUniqueOrThrow({ where: { id: account.accountId } });
    expect(stored.balance).toBe(0n);
    const ledger = await db().ledgerEntry.findMany({ where: { accountId: account.accountId } });
    expect(ledger.reduce((sum, entry) => sum + entry.amount, 0n)).toBe(stored.balance);
    const holds = ledger.filter((entry) => entry.kind === "hold");
    expect(holds).toHaveLength(120);
    expect(holds.every((entry) => entry.amount === -ECONET)).toBe(true);
    // In the order they were written, each hold's balance after it one charge below the one before.
    let balance = 120n * ECONET;
    for (const hold of holds.sort((a, b) => a.id - b.id)) {
      balance -= ECONET;
      expect(hold.balanceAfter).toBe(balance);
    }
    expect(new Set(holds.map((entry) => entry.messageId))).toEqual(new Set(accepted.map((call) => call.body.id)));
    expect(await db().message.count({ where: { accountId: account.accountId } })).toBe(120);
  });
});
