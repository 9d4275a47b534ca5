// The ledger invariant: after credits, holds and releases, the balance equals the ledger's sum;
// a hold never takes the balance below zero; a message is held once and released at most once.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { applyLedgerEntries, applyLedgerEntry } from "@/lib/ledger/apply-ledger-entry";
import { creditBalance } from "@/lib/ledger/credit-balance";
import { getBalance } from "@/lib/ledger/get-balance";
import { createAccount } from "@/lib/accounts/create-account";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

async function insertMessage(accountId: string, charge: bigint): Promise<string> {
  const now = new Date();
  const message = await db().message.create({
    data: {
      id: crypto.randomUUID(),
      accountId,
      to: "+263771234567",
      body: "hi",
      senderId: "DEMO",
      operator: "econet",
      charge,
      currency: "USD",
      segments: 1,
      encoding: "gsm7",
      status: "enqueued",
      nextAttemptAt: now,
      receivedAt: now,
    },
  });
  return message.id;
}

async function ledgerSum(accountId: string): Promise<bigint> {
  const entries = await db().ledgerEntry.findMany({ where: { accountId } });
  return entries.reduce((sum, entry) => sum + entry.amount, 0n);
}

describe("ledger", () => {
  it("keeps the balance equal to the sum of the ledger through credits, holds and releases", async () => {
    const account = await createAccount({ name: "Ledger", currency: "USD", openingBalance: 10_000n, actor: "test" });
    await creditBalance({ accountId: account.id, amount: 5_000n, reason: "top-up", actor: "test" });
    const held: string[] = [];
    for (let i = 0; i < 5; i++) {
      const messageId = await insertMessage(account.id, 2_000n);
      const after = await sql().transaction((tx) =>
        applyLedgerEntry(tx, { accountId: account.id, kind: "hold", amount: -2_000n, messageId, actor: "test", requireCover: true }),
      );
      expect(after).toBe(15_000n - 2_000n * BigInt(i + 1));
      held.push(messageId);
    }
    for (const messageId of held.slice(0, 2)) {
      await sql().transaction((tx) =>
        applyLedgerEntry(tx, { accountId: account.id, kind: "release", amount: 2_000n, messageId, actor: "system", requireCover: false }),
      );
    }
    const balance = await getBalance(account.id);
    expect(balance.available).toBe(15_000n - 6_000n);
    expect(await ledgerSum(account.id)).toBe(balance.available);
    const entries = await db().ledgerEntry.findMany({ where: { accountId: account.id }, orderBy: { id: "asc" } });
    expect(entries.map((entry) => entry.kind)).toEqual(["credit", "credit", "hold", "hold", "hold", "hold", "hold", "release", "release"]);
    expect(entries.at(-1)!.balanceAfter).toBe(balance.available);
  });

  it("refuses a hold the balance does not cover and changes nothing", async () => {
    const account = await createAccount({ name: "Poor", currency: "USD", openingBalance: 1_000n, actor: "test" });
    const messageId = await insertMessage(account.id, 1_001n);
    const result = await sql().transaction((tx) =>
      applyLedgerEntry(tx, { accountId: account.id, kind: "hold", amount: -1_001n, messageId, actor: "test", requireCover: true }),
    );
    expect(result).toBeNull();
    expect((await getBalance(account.id)).available).toBe(1_000n);
    expect(await db().ledgerEntry.count({ where: { accountId: account.id } })).toBe(1);
  });

  it("lets the database refuse a second release of the same message", async () => {
    const account = await createAccount({ name: "Once", currency: "USD", openingBalance: 5_000n, actor: "test" });
    const messageId = await insertMessage(account.id, 500n);
    const release = () =>
      sql().transaction((tx) =>
        applyLedgerEntry(tx, { accountId: account.id, kind: "release", amount: 500n, messageId, actor: "system", requireCover: false }),
      );
    await release();
    await expect(release()).rejects.toThrow();
    expect((await getBalance(account.id)).available).toBe(5_500n);
    expect(await ledgerSum(account.id)).toBe(5_500n);
  });

  it("keeps the invariant under concurrent holds: never below zero", async () => {
    const account = await createAccount({ name: "Race", currency: "USD", openingBalance: 10_000n, actor: "test" });
    const messageIds = await Promise.all(Array.from({ length: 30 }, () => insertMessage(account.id, 1_000n)));
    const results = await Promise.all(
      messageIds.map((messageId) =>
        sql().transaction((tx) =>
          applyLedgerEntry(tx, { accountId: account.id, kind: "hold", amount: -1_000n, messageId, actor: "test", requireCover: true }),
        ),
      ),
    );
    expect(results.filter((result) => result !== null)).toHaveLength(10);
    expect((await getBalance(account.id)).available).toBe(0n);
    expect(await ledgerSum(account.id)).toBe(0n);
  });

  it("applies a batch of one account's entries with a running balanceAfter, or refuses it whole", async () => {
    const account = await createAccount({ name: "Batch", currency: "USD", openingBalance: 10_000n, actor: "test" });
    const messageIds = await Promise.all([3_000n, 4_000n, 5_000n].map((charge) => insertMessage(account.id, charge)));
    const holds = (ids: string[], charges: bigint[]) =>
      ids.map((messageId, index) => ({ kind: "hold" as const, amount: -charges[index], messageId, actor: "test" }));

    const refused = await sql().transaction((tx) =>
      applyLedgerEntries(tx, account.id, holds(messageIds, [3_000n, 4_000n, 5_000n]), { requireCover: true }),
    );
    expect(refused).toBeNull();
    expect(await db().ledgerEntry.count({ where: { accountId: account.id, kind: "hold" } })).toBe(0);

    const after = await sql().transaction((tx) =>
      applyLedgerEntries(tx, account.id, holds(messageIds.slice(0, 2), [3_000n, 4_000n]), { requireCover: true }),
    );
    expect(after).toBe(3_000n);
    const entries = await db().ledgerEntry.findMany({ where: { accountId: account.id }, orderBy: { id: "asc" } });
    expect(entries.map((entry) => [entry.kind, entry.amount, entry.balanceAfter])).toEqual([
      ["credit", 10_000n, 10_000n],
      ["hold", -3_000n, 7_000n],
      ["hold", -4_000n, 3_000n],
    ]);
    expect(await ledgerSum(account.id)).toBe((await getBalance(account.id)).available);
  });
});
