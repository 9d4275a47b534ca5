// A credit is refused, naming the amount, when it would take a balance past MAX_BALANCE: nothing is
// written, and no amount an admin can type reaches the database as an overflow.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { creditBalance } from "@/lib/ledger/credit-balance";
import { createAccount } from "@/lib/accounts/create-account";
import { MAX_BALANCE, parseAmount } from "@/lib/money";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

const refusedAmount = {
  code: "VALIDATION_ERROR",
  options: { fields: [{ field: "amount", description: expect.stringMatching(/maximum of 100000000000\.0000/) }] },
};

describe("credit ceiling", () => {
  it("refuses the largest amount the form accepts, and writes nothing", async () => {
    const account = await createAccount({ name: "Ceiling", currency: "USD", openingBalance: 10_000n, actor: "test" });
    const entriesBefore = await db().ledgerEntry.count({ where: { accountId: account.id } });
    await expect(
      creditBalance({ accountId: account.id, amount: parseAmount("999999999999999.9999"), actor: "test" }),
    ).rejects.toMatchObject(refusedAmount);
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).balance).toBe(10_000n);
    expect(await db().ledgerEntry.count({ where: { accountId: account.id } })).toBe(entriesBefore);
  });

  it("credits up to the ceiling and refuses a credit past it, rolling it back", async () => {
    const account = await createAccount({ name: "Ceiling 2", currency: "USD", openingBalance: 0n, actor: "test" });
    expect((await creditBalance({ accountId: account.id, amount: MAX_BALANCE - 1n, actor: "test" })).balance).toBe(MAX_BALANCE - 1n);
    const entriesBefore = await db().ledgerEntry.count({ where: { accountId: account.id } });
    await expect(creditBalance({ accountId: account.id, amount: 2n, actor: "test" })).rejects.toMatchObject(refusedAmount);
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).balance).toBe(MAX_BALANCE - 1n);
    expect(await db().ledgerEntry.count({ where: { accountId: account.id } })).toBe(entriesBefore);
  });

  it("refuses an opening balance past the ceiling", async () => {
    await expect(
      createAccount({ name: "Too rich", currency: "USD", openingBalance: MAX_BALANCE + 1n, actor: "test" }),
    ).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      options: { fields: [{ field: "balance", description: "must be at most 100000000000.0000" }] },
    });
  });
});
