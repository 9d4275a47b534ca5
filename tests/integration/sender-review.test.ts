// Sender id review: one request per name on an account whatever its case, a rejection carries a
// reason the account reads, and a rejected name can be requested again for another review.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createAccount } from "@/lib/accounts/create-account";
import { addSender } from "@/lib/senders/add-sender";
import { approveSender } from "@/lib/senders/approve-sender";
import { rejectSender } from "@/lib/senders/reject-sender";
import { listSenders } from "@/lib/senders/list-senders";
import { senderNameSchema, SENDER_NAME_RULE } from "@/lib/senders/sender-name";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

describe("sender id review", () => {
  it("keeps one request per name whatever its case", async () => {
    const account = await createAccount({ name: "Case", currency: "USD", openingBalance: 0n, actor: "test" });
    await addSender({ accountId: account.id, name: "acme", useCase: "Order updates to customers", approved: false, actor: "test" });
    await expect(addSender({ accountId: account.id, name: "ACME", approved: false, actor: "test" })).rejects.toMatchObject({
      code: "CONFLICT",
      options: { fields: [{ field: "sender_id", description: "is the same as acme, which is already pending" }] },
    });
    await expect(addSender({ accountId: account.id, name: "acme", approved: false, actor: "test" })).rejects.toMatchObject({
      options: { fields: [{ field: "sender_id", description: "is already pending" }] },
    });
    expect(await db().senderId.count({ where: { accountId: account.id } })).toBe(1);
    // Another account may hold the same name.
    const other = await createAccount({ name: "Case 2", currency: "USD", openingBalance: 0n, actor: "test" });
    await addSender({ accountId: other.id, name: "Acme", approved: false, actor: "test" });
  });

  it("dates a sender id added approved, and an approval, with one time each", async () => {
    const account = await createAccount({ name: "Times", currency: "USD", openingBalance: 0n, actor: "test" });
    const added = await addSender({ accountId: account.id, name: "TIMES", approved: true, actor: "test" });
    expect(added.approvedAt).toEqual(added.createdAt);
    await addSender({ accountId: account.id, name: "LATER", approved: false, actor: "test" });
    const approved = await approveSender({ accountId: account.id, name: "LATER", actor: "user:admin" });
    expect(approved.approvedAt).toEqual(approved.reviewedAt);
  });

  it("rejects with a reason the account reads, and takes the name back for review when requested again", async () => {
    const account = await createAccount({ name: "Review", currency: "USD", openingBalance: 0n, actor: "test" });
    await addSender({ accountId: account.id, name: "BANKCO", useCase: "Alerts", approved: false, actor: "test" });
    await expect(rejectSender({ accountId: account.id, name: "BANKCO", reason: " ", actor: "user:admin" })).rejects.toMatchObject({
      options: { fields: [{ field: "reason", description: "say why, in a few words; the account sees it" }] },
    });
    await rejectSender({
      accountId: account.id,
      name: "BANKCO",
      reason: "Looks like a bank's name; send proof you may use it",
      actor: "user:admin",
    });
    const [rejected] = await listSenders(account.id);
    expect(rejected).toMatchObject({ status: "rejected", rejectedReason: "Looks like a bank's name; send proof you may use it" });
    expect(rejected.reviewedAt).toBeInstanceOf(Date);
    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "sender.rejected", targetId: rejected.id } });
    expect(audit.actor).toBe("user:admin");
    await expect(
      rejectSender({ accountId: account.id, name: "BANKCO", reason: "Again please", actor: "user:admin" }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
    });

    const again = await addSender({
      accountId: account.id,
      name: "bankco",
      useCase: "Balance alerts; letter attached",
      approved: false,
      actor: "test",
    });
    expect(again).toMatchObject({
      id: rejected.id,
      name: "bankco",
      status: "pending",
      rejectedReason: null,
      useCase: "Balance alerts; letter attached",
    });
    await approveSender({ accountId: account.id, name: "bankco", actor: "user:admin" });
    expect((await listSenders(account.id))[0]).toMatchObject({ status: "approved", rejectedReason: null });
  });

  it("describes the rule the pattern applies", () => {
    expect(SENDER_NAME_RULE).toContain("1-11 letters, digits, spaces or . _ & -");
    expect(SENDER_NAME_RULE).toContain("3-15 digits");
    for (const ok of ["A", "12", "ACME Ltd", "a.b_c&d-e12", "123", "+263771234567", "123456789012345"]) {
      expect(senderNameSchema.safeParse(ok).success, ok).toBe(true);
    }
    for (const bad of ["+12", "ABCDEFGHIJKL", "+1234567890123456", "acme!"]) {
      expect(senderNameSchema.safeParse(bad).error?.issues[0].message, bad).toBe(`must be ${SENDER_NAME_RULE}`);
    }
  });
});
