// Top-up requests: an owner asks, an admin approves (one credit through the ordinary credit path,
// whatever the number of approvals racing) or declines with a reason, the owner may cancel while it
// is pending; each step is audited and bad input changes nothing.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createAccount } from "@/lib/accounts/create-account";
import { createUser } from "@/lib/users/create-user";
import { requestTopUp } from "@/lib/ledger/request-top-up";
import { approveTopUp, topUpCreditReason } from "@/lib/ledger/approve-top-up";
import { declineTopUp } from "@/lib/ledger/decline-top-up";
import { cancelTopUp } from "@/lib/ledger/cancel-top-up";
import { countPendingTopUps, listAccountTopUps, listPendingTopUps } from "@/lib/ledger/top-up-requests";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

let sequence = 0;
async function accountWithOwner(openingBalance = 10_000n) {
  sequence += 1;
  const account = await createAccount({
    name: `Top-up ${sequence}`,
    currency: "USD",
    openingBalance,
    owner: { email: `owner${sequence}@topup.test`, password: "correct horse battery" },
    actor: "test",
  });
  const owner = await db().user.findFirstOrThrow({ where: { accountId: account.id } });
  return { account, owner, actor: `user:${owner.id}` };
}

async function admin() {
  sequence += 1;
  const user = await createUser({ email: `admin${sequence}@topup.test`, password: "correct horse battery", role: "admin", actor: "test" });
  return { user, actor: `user:${user.id}` };
}

async function balanceOf(accountId: string): Promise<bigint> {
  return (await db().account.findUniqueOrThrow({ where: { id: accountId } })).balance;
}

async function auditActions(targetId: string): Promise<string[]> {
  const events = await db().auditEvent.findMany({ where: { targetId }, orderBy: { id: "asc" } });
  return events.map((event) => event.action);
}

describe("top-up requests", () => {
  it("approval credits once, through one ledger credit naming the request, even when approvals race", async () => {
    const { account, owner, actor } = await accountWithOwner();
    const first = await admin();
    const second = await admin();
    const request = await requestTopUp({ accountId: account.id, amount: "25.50", reference: "FNB 88213", note: "March", actor });
    expect(request).toMatchObject({ amount: 255_000n, currency: "USD", reference: "FNB 88213", note: "March", state: "pending" });
    expect(await countPendingTopUps()).toBeGreaterThanOrEqual(1);
    const pending = (await listPendingTopUps()).find((row) => row.id === request.id);
    expect(pending).toMatchObject({ accountName: account.name, requestedBy: owner.email, state: "pending" });

    const results = await Promise.allSettled([
      approveTopUp({ requestId: request.id, actor: first.actor }),
      approveTopUp({ requestId: request.id, actor: second.actor }),
      approveTopUp({ requestId: request.id, actor: first.actor }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results.filter((result) => result.status === "rejected")) {
      expect((result as PromiseRejectedResult).reason).toMatchObject({ code: "CONFLICT" });
    }
    await expect(approveTopUp({ requestId: request.id, actor: second.actor })).rejects.toMatchObject({ code: "CONFLICT" });

    expect(await balanceOf(account.id)).toBe(265_000n);
    const credits = await db().ledgerEntry.findMany({ where: { accountId: account.id, kind: "credit" }, orderBy: { id: "asc" } });
    expect(credits).toHaveLength(2);
    expect(credits[1]).toMatchObject({ amount: 255_000n, balanceAfter: 265_000n, reason: topUpCreditReason(request) });
    expect(credits[1].reason).toContain(request.id);
    const [row] = await listAccountTopUps(account.id);
    expect(row).toMatchObject({ id: request.id, state: "approved" });
    expect([first.user.email, second.user.email]).toContain(row.decidedBy);
    expect(row.decidedAt).toBeInstanceOf(Date);

    expect(await auditActions(request.id)).toEqual(["top_up.requested", "top_up.approved"]);
    const credited = await db().auditEvent.findMany({ where: { accountId: account.id, action: "balance.credited" } });
    expect(credited).toHaveLength(1);
    expect(JSON.parse(credited[0].data)).toMatchObject({ amount: "255000", topUpRequestId: request.id });
    expect((await listPendingTopUps()).some((row) => row.id === request.id)).toBe(false);
  });

  it("decline keeps the balance and shows the reason; a declined request cannot be approved or cancelled", async () => {
    const { account, actor } = await accountWithOwner();
    const { actor: adminActor } = await admin();
    const request = await requestTopUp({ accountId: account.id, amount: "100", reference: "EcoCash 55", actor });

    await expect(declineTopUp({ requestId: request.id, reason: " ", actor: adminActor })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      options: { fields: [{ field: "reason", description: "say why, in a few words" }] },
    });
    await declineTopUp({ requestId: request.id, reason: "No transfer with this reference arrived", actor: adminActor });
    await expect(approveTopUp({ requestId: request.id, actor: adminActor })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(cancelTopUp({ accountId: account.id, requestId: request.id, actor })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(declineTopUp({ requestId: request.id, reason: "Again", actor: adminActor })).rejects.toMatchObject({ code: "CONFLICT" });

    expect(await balanceOf(account.id)).toBe(10_000n);
    expect(await db().ledgerEntry.count({ where: { accountId: account.id } })).toBe(1);
    const [row] = await listAccountTopUps(account.id);
    expect(row).toMatchObject({ state: "declined", declineReason: "No transfer with this reference arrived" });
    expect(await auditActions(request.id)).toEqual(["top_up.requested", "top_up.declined"]);
  });

  it("the owner cancels a pending request of their own account only; then it cannot be approved", async () => {
    const { account, actor } = await accountWithOwner();
    const other = await accountWithOwner();
    const { actor: adminActor } = await admin();
    const request = await requestTopUp({ accountId: account.id, amount: "5", reference: "Ref 1", actor });

    await expect(cancelTopUp({ accountId: other.account.id, requestId: request.id, actor: other.actor })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await cancelTopUp({ accountId: account.id, requestId: request.id, actor });
    await expect(approveTopUp({ requestId: request.id, actor: adminActor })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await balanceOf(account.id)).toBe(10_000n);
    const [row] = await listAccountTopUps(account.id);
    expect(row.state).toBe("cancelled");
    expect(await auditActions(request.id)).toEqual(["top_up.requested", "top_up.cancelled"]);
    await expect(approveTopUp({ requestId: "00000000-0000-4000-8000-000000000000", actor: adminActor })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("refuses bad amounts, references and notes naming the field, and stores nothing", async () => {
    const { account, actor } = await accountWithOwner();
    const cases: [Parameters<typeof requestTopUp>[0], string][] = [
      [{ accountId: account.id, amount: "0", reference: "Ref 1", actor }, "amount"],
      [{ accountId: account.id, amount: "-5", reference: "Ref 1", actor }, "amount"],
      [{ accountId: account.id, amount: "1.23456", reference: "Ref 1", actor }, "amount"],
      [{ accountId: account.id, amount: "100000000000.0001", reference: "Ref 1", actor }, "amount"],
      [{ accountId: account.id, amount: "ten", reference: "Ref 1", actor }, "amount"],
      [{ accountId: account.id, amount: "10", reference: "  ", actor }, "reference"],
      [{ accountId: account.id, amount: "10", reference: "R".repeat(101), actor }, "reference"],
      [{ accountId: account.id, amount: "10", reference: "Ref 1", note: "n".repeat(301), actor }, "note"],
    ];
    for (const [input, field] of cases) {
      await expect(requestTopUp(input)).rejects.toMatchObject({ code: "VALIDATION_ERROR", options: { fields: [{ field }] } });
    }
    expect(await db().topUpRequest.count({ where: { accountId: account.id } })).toBe(0);
    const ceiling = await requestTopUp({ accountId: account.id, amount: "100000000000", reference: "Ref max", actor });
    expect(ceiling.amount).toBe(1_000_000_000_000_000n);
    const { actor: adminActor } = await admin();
    // Approving it would take the balance past the ceiling: the credit is refused and the request stays pending.
    await expect(approveTopUp({ requestId: ceiling.id, actor: adminActor })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      options: { fields: [{ field: "amount" }] },
    });
    expect((await listAccountTopUps(account.id))[0].state).toBe("pending");
    expect(await balanceOf(account.id)).toBe(10_000n);
  });
});
