// A credit is undone by a correcting ledger entry, never by editing it: the credit row stays, an
// adjustment of the opposite amount follows it, the balance still equals the ledger's sum, and a
// credit is reversed at most once and never past what the balance still holds.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createAccount } from "@/lib/accounts/create-account";
import { creditBalance } from "@/lib/ledger/credit-balance";
import { reverseCredit } from "@/lib/ledger/reverse-credit";
import { listRecentCredits } from "@/lib/ledger/list-credits";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

async function latestCreditId(accountId: string): Promise<number> {
  const entry = await db().ledgerEntry.findFirstOrThrow({ where: { accountId, kind: "credit" }, orderBy: { id: "desc" } });
  return entry.id;
}

describe("credit reversal", () => {
  it("writes an adjustment of the opposite amount, keeps the credit, and audits it", async () => {
    const account = await createAccount({ name: "Reversal", currency: "USD", openingBalance: 10_000n, actor: "test" });
    await creditBalance({ accountId: account.id, amount: 125_000n, reason: "Bank transfer 7781", actor: "user:admin" });
    const creditId = await latestCreditId(account.id);

    const { balance, amount } = await reverseCredit({ accountId: account.id, creditId, note: "Transfer bounced", actor: "user:admin" });
    expect(amount).toBe(125_000n);
    expect(balance).toBe(10_000n);

    const entries = await db().ledgerEntry.findMany({ where: { accountId: account.id }, orderBy: { id: "asc" } });
    const credit = entries.find((entry) => entry.id === creditId)!;
    expect(credit.amount).toBe(125_000n);
    expect(credit.reason).toBe("Bank transfer 7781");
    const last = entries.at(-1)!;
    expect(last).toMatchObject({ kind: "adjustment", amount: -125_000n, balanceAfter: 10_000n, actor: "user:admin" });
    expect(last.reason).toBe(`Reversal of credit #${creditId}: Transfer bounced`);
    expect(entries.reduce((sum, entry) => sum + entry.amount, 0n)).toBe(10_000n);
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).balance).toBe(10_000n);

    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "balance.credit_reversed", targetId: String(creditId) } });
    expect(JSON.parse(audit.data)).toEqual({ amount: "125000", note: "Transfer bounced" });
    const listed = (await listRecentCredits()).find((row) => row.id === creditId);
    expect(listed?.reversed).toBe(true);
  });

  it("refuses a second reversal, a blank note, another account's credit and a spent credit, changing nothing", async () => {
    const account = await createAccount({ name: "Reversal 2", currency: "USD", openingBalance: 0n, actor: "test" });
    const other = await createAccount({ name: "Reversal 3", currency: "USD", openingBalance: 0n, actor: "test" });
    await creditBalance({ accountId: account.id, amount: 50_000n, reason: "Invoice 12", actor: "cli" });
    const creditId = await latestCreditId(account.id);

    await expect(reverseCredit({ accountId: account.id, creditId, note: " ", actor: "cli" })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      options: { fields: [{ field: "note", description: "say why, in a few words" }] },
    });
    await expect(reverseCredit({ accountId: other.id, creditId, note: "wrong account", actor: "cli" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await reverseCredit({ accountId: account.id, creditId, note: "Duplicate invoice", actor: "cli" });
    await expect(reverseCredit({ accountId: account.id, creditId, note: "Again", actor: "cli" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).balance).toBe(0n);

    await creditBalance({ accountId: account.id, amount: 20_000n, reason: "Invoice 13", actor: "cli" });
    const spentId = await latestCreditId(account.id);
    await db().account.update({ where: { id: account.id }, data: { balance: 5_000n } });
    await expect(reverseCredit({ accountId: account.id, creditId: spentId, note: "Too late", actor: "cli" })).rejects.toMatchObject({
      code: "INSUFFICIENT_BALANCE",
    });
    expect(await db().ledgerEntry.count({ where: { accountId: account.id, kind: "adjustment" } })).toBe(1);
  });
});
