// The dashboard's own domain code on a real database: sign-in throttling, members, the message list's
// keyset pagination and filters, message detail scoping, the support lookup and the overview stats.
import { beforeAll, describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { createAccount } from "@/lib/accounts/create-account";
import { createUser } from "@/lib/users/create-user";
import { acceptMessages } from "@/lib/messages/accept-messages";
import { addMember } from "@/lib/users/add-member";
import { removeMember } from "@/lib/users/remove-member";
import { listMembers } from "@/lib/users/list-members";
import {
  clearFailedLogins,
  loginRetryAfterSeconds,
  LOGIN_WINDOW_MS,
  MAX_FAILURES_PER_ADDRESS,
  MAX_FAILURES_PER_EMAIL,
  recordFailedLogin,
} from "@/lib/auth/login-throttle";
import { listMessages, MESSAGE_PAGE_SIZE, parseMessageFilters } from "@/lib/dashboard/list-messages";
import { getMessageDetail } from "@/lib/dashboard/get-message-detail";
import { lookupMessages, parseLookupFilters } from "@/lib/dashboard/lookup-messages";
import { getAccountStats } from "@/lib/dashboard/get-account-stats";
import { listLedger } from "@/lib/dashboard/list-ledger";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

let accountA: string;
let accountB: string;
let bulkIds: string[];
let singleId: string;
let otherId: string;

function numbers(count: number, prefix: string): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix}${String(index).padStart(6, "0")}`);
}

beforeAll(async () => {
  accountA = (await createAccount({ name: "Alpha", currency: "USD", openingBalance: 1_000_000n, senders: ["ALPHA"], actor: "test" })).id;
  accountB = (await createAccount({ name: "Beta", currency: "USD", openingBalance: 100_000n, senders: ["BETA"], actor: "test" })).id;
  const send = (accountId: string, from: string, recipients: string[], kind: "single" | "bulk") =>
    acceptMessages({ accountId, from, body: "Hello", recipients, actor: "test", mode: "live", kind });
  // 120 messages sharing one createdAt: pages must break the tie on id.
  const bulk = await send(accountA, "ALPHA", [...numbers(100, "+263771"), ...numbers(20, "+263712")], "bulk");
  bulkIds = bulk.messages.map((message) => message.id);
  singleId = (await send(accountA, "ALPHA", ["0733999888"], "single")).messages[0].id;
  otherId = (await send(accountB, "BETA", ["+263733999888"], "single")).messages[0].id;
});

describe("sign-in throttling", () => {
  it("refuses an email after its failures and lets it in again once the window has passed", async () => {
    const now = new Date();
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL - 1; i++) await recordFailedLogin("victim@example.com", "10.0.0.1", now);
    expect(await loginRetryAfterSeconds("victim@example.com", "10.0.0.1", now)).toBe(0);
    await recordFailedLogin("victim@example.com", "10.0.0.1", now);
    expect(await loginRetryAfterSeconds("victim@example.com", "10.0.0.1", now)).toBe(LOGIN_WINDOW_MS / 1000);
    expect(await loginRetryAfterSeconds("victim@example.com", "10.0.0.9", now)).toBe(LOGIN_WINDOW_MS / 1000);
    expect(await loginRetryAfterSeconds("someone.else@example.com", "10.0.0.9", now)).toBe(0);
    expect(await loginRetryAfterSeconds("victim@example.com", "10.0.0.1", new Date(now.getTime() + LOGIN_WINDOW_MS + 1000))).toBe(0);
    await clearFailedLogins("victim@example.com");
    expect(await loginRetryAfterSeconds("victim@example.com", "10.0.0.1", now)).toBe(0);
  });

  it("refuses an address that tries many emails", async () => {
    const now = new Date();
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) await recordFailedLogin(`guess${i}@example.com`, "10.9.9.9", now);
    expect(await loginRetryAfterSeconds("fresh@example.com", "10.9.9.9", now)).toBeGreaterThan(0);
    expect(await loginRetryAfterSeconds("fresh@example.com", "10.9.9.8", now)).toBe(0);
  });
});

describe("members", () => {
  it("adds a member with a one-time password and removes them, never oneself or another account's user", async () => {
    const owner = await createUser({
      email: "owner@alpha.test",
      password: "owner password 1",
      role: "owner",
      accountId: accountA,
      actor: "test",
    });
    const stranger = await createUser({
      email: "owner@beta.test",
      password: "owner password 2",
      role: "owner",
      accountId: accountB,
      actor: "test",
    });
    const added = await addMember({ email: "Dev@Alpha.test", role: "developer", accountId: accountA, actor: `user:${owner.id}` });
    expect(added).toMatchObject({ email: "dev@alpha.test", role: "developer" });
    expect(added.password.length).toBeGreaterThanOrEqual(16);
    await expect(addMember({ email: "dev@alpha.test", role: "developer", accountId: accountA, actor: "test" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect((await listMembers(accountA)).map((member) => member.email)).toEqual(["owner@alpha.test", "dev@alpha.test"]);

    await expect(removeMember({ accountId: accountA, userId: owner.id, actingUserId: owner.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(removeMember({ accountId: accountA, userId: stranger.id, actingUserId: owner.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await removeMember({ accountId: accountA, userId: added.id, actingUserId: owner.id });
    expect(await db().user.findUnique({ where: { id: added.id } })).toBeNull();
    expect(await db().user.findUnique({ where: { id: stranger.id } })).not.toBeNull();
  });
});

describe("message list", () => {
  it("pages through every message once, newest first, without another account's", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await listMessages(accountA, parseMessageFilters({ cursor }).filters, "live");
      expect(page.rows.length).toBeLessThanOrEqual(MESSAGE_PAGE_SIZE);
      seen.push(...page.rows.map((row) => row.id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toHaveLength(121);
    expect(new Set(seen).size).toBe(121);
    expect(seen[0]).toBe(singleId);
    expect(seen).not.toContain(otherId);
  });

  it("filters by carrier, recipient in any form, bulk send, delivery and id", async () => {
    const list = (filters: Record<string, string>) => listMessages(accountA, parseMessageFilters(filters).filters, "live");
    expect((await list({ operator: "netone" })).rows).toHaveLength(20);
    expect((await list({ recipient: "0733 999 888" })).rows.map((row) => row.id)).toEqual([singleId]);
    const bulkSendId = (await db().message.findUniqueOrThrow({ where: { id: bulkIds[0] } })).bulkSendId!;
    const bulkPage = await list({ bulk: bulkSendId });
    expect(bulkPage.rows).toHaveLength(MESSAGE_PAGE_SIZE);
    expect(bulkPage.nextCursor).not.toBeNull();
    expect((await list({ delivered: "yes" })).rows).toHaveLength(0);
    expect((await list({ id: otherId })).rows).toHaveLength(0);
    expect((await list({ id: singleId, status: "enqueued" })).rows).toHaveLength(1);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await list({ since: tomorrow })).rows).toHaveLength(0);
    expect((await list({ id: `…${singleId.slice(-8).toUpperCase()}` })).rows.map((row) => row.id)).toEqual([singleId]);
    expect((await list({ id: singleId.slice(-12) })).rows.map((row) => row.id)).toEqual([singleId]);
    expect((await list({ id: singleId.slice(0, 8) })).rows.map((row) => row.id)).toContain(singleId);
  });

  it("leaves out a bad filter value and names it with the reason, keeping the other filters", async () => {
    const { filters, problems } = parseMessageFilters({
      status: "bogus",
      cursor: "%%%",
      since: "yesterday",
      id: "xyz!",
      operator: "netone",
    });
    expect(filters).toEqual({ operator: "netone" });
    expect(problems.map((problem) => problem.field).sort()).toEqual(["cursor", "id", "since", "status"]);
    expect(problems.find((problem) => problem.field === "id")?.description).toMatch(/^Message id: /);
    expect((await listMessages(accountA, filters, "live")).rows).toHaveLength(20);
  });
});

describe("message detail and support lookup", () => {
  it("shows an account its own message with its hold, and another account's as not found", async () => {
    const detail = await getMessageDetail(singleId, { accountId: accountA, test: false });
    expect(detail.sms).toMatchObject({ id: singleId, to: "+263733999888", message: "Hello", status: "enqueued", operator: "telecel" });
    expect(detail.events.map((event) => event.kind)).toContain("accepted");
    expect(detail.ledger).toEqual([expect.objectContaining({ kind: "hold", amount: "-320" })]);
    await expect(getMessageDetail(otherId, { accountId: accountA, test: false })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("lets platform staff find any account's message by id or number, without its body", async () => {
    const staffView = await getMessageDetail(otherId, { platform: true });
    expect(staffView.account.name).toBe("Beta");
    expect(staffView.sms.message).toBeNull();
    expect((await lookupMessages({ q: otherId.toUpperCase() })).rows.map((row) => row.accountName)).toEqual(["Beta"]);
    expect((await lookupMessages({ q: otherId.slice(-8) })).rows.map((row) => row.id)).toEqual([otherId]);
    const byNumber = await lookupMessages({ q: "0733999888" });
    expect(byNumber.rows.map((row) => row.accountName).sort()).toEqual(["Alpha", "Beta"]);
    expect(parseLookupFilters({ q: "12" }).problems.map((problem) => problem.field)).toEqual(["q"]);
  });

  it("shows platform staff a message's webhook attempts without the URL or the host and address its errors name", async () => {
    const errors = [
      "connect ECONNREFUSED 10.20.30.40:8443",
      "refused: host hooks.beta.example could not be resolved",
      "HTTP 502",
      "socket hang up at hooks.beta.example",
    ];
    await db().webhookDelivery.create({
      data: {
        accountId: accountB,
        messageId: otherId,
        url: "https://hooks.beta.example/private-path",
        eventType: "message.failed",
        payload: "{}",
        status: "failed",
        attempts: errors.length,
        nextAttemptAt: new Date(),
        lastError: errors[0],
        attemptLog: { create: errors.map((error) => ({ error, latencyMs: 5 })) },
      },
    });

    const staffView = JSON.stringify(await getMessageDetail(otherId, { platform: true }));
    for (const hidden of ["hooks.beta.example", "10.20.30.40", "8443", "private-path"]) expect(staffView).not.toContain(hidden);
    const [delivery] = (await getMessageDetail(otherId, { platform: true })).webhooks;
    expect(delivery).toMatchObject({ url: null, lastError: "ECONNREFUSED" });
    expect(delivery.attemptLog.map((attempt) => attempt.error)).toEqual([
      "ECONNREFUSED",
      "refused: the URL is not allowed",
      "HTTP 502",
      "connection failed",
    ]);
    const accountView = (await getMessageDetail(otherId, { accountId: accountB, test: false })).webhooks[0];
    expect(accountView).toMatchObject({ url: "https://hooks.beta.example/private-path", lastError: errors[0] });
    expect(accountView.attemptLog.map((attempt) => attempt.error)).toEqual(errors);
  });
});

describe("overview stats and ledger", () => {
  it("counts today's messages per carrier and spend equal to the holds", async () => {
    const stats = await getAccountStats(accountA, "live");
    const today = stats.days[stats.days.length - 1];
    expect(today.inFlight).toBe(121);
    expect(stats.totals.messages).toBe(121);
    const holds = await db().ledgerEntry.aggregate({ where: { accountId: accountA, kind: "hold" }, _sum: { amount: true } });
    expect(stats.totals.spend).toBe(-holds._sum.amount!);
    expect(today.spend).toBe(100n * 350n + 20n * 300n + 320n);
  });

  it("counts a delivered and a failed message as final per carrier, and a cancelled one apart", async () => {
    const now = toDbTime(new Date());
    await sql().run(`UPDATE "Message" SET "status" = 'success', "deliveredAt" = ? WHERE "id" = ?`, [now, bulkIds[0]]);
    await sql().run(`UPDATE "Message" SET "status" = 'failed' WHERE "id" = ?`, [bulkIds[1]]);
    await sql().run(`UPDATE "Message" SET "status" = 'failed', "operatorResponse" = 'CANCELLED' WHERE "id" = ?`, [bulkIds[2]]);
    const stats = await getAccountStats(accountA, "live");
    expect(stats.carriers.find((carrier) => carrier.operator === "econet")).toEqual({ operator: "econet", delivered: 1, final: 2 });
    expect(stats.days[stats.days.length - 1]).toMatchObject({ delivered: 1, failed: 1, cancelled: 1, inFlight: 118 });
    expect(stats.totals.messages).toBe(121);
  });

  it("filters the ledger by kind and pages it by id", async () => {
    const credits = await listLedger(accountA, { kind: "credit" });
    expect(credits.rows.map((row) => (row.type === "entry" ? row.reason : row.bulkSendId))).toEqual(["opening balance"]);
    const first = await listLedger(accountA, { rows: "each" });
    expect(first.rows).toHaveLength(50);
    const second = await listLedger(accountA, { rows: "each", before: first.nextBefore! });
    expect(second.rows[0].id).toBeLessThan(first.rows[49].id);
  });
});
