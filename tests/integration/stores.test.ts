// The stores' contract: every operation of each engine's store, called directly, against the same
// expectations (the suite runs once per engine: TEST_DB=sqlite, TEST_DB=postgres).
import { describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { getStores } from "@/lib/db/stores";
import { createApiKey } from "@/lib/keys/create-api-key";
import { revokeApiKey } from "@/lib/keys/revoke-api-key";
import { priceSend } from "@/lib/messages/commit-sends";
import { AppError } from "@/lib/errors";
import { IdempotencyKeyTakenError, type AcceptedSend, type PreparedSend } from "@/lib/model/sends";
import type { Operator } from "@/lib/model/operators";
import { useTestDatabase } from "../helpers/test-database";
import { createSendingAccount, SENDER } from "../helpers/delivery";

useTestDatabase();

const ECONET = 350n;

async function keyOf(accountId: string, mode: "live" | "test" = "live"): Promise<string> {
  return (await createApiKey({ accountId, name: `${mode} store key`, mode, actor: "test" })).id;
}

function prepared(
  accountId: string,
  apiKeyId: string,
  recipients: number,
  options: Partial<PreparedSend> = {},
  operator: Operator = "econet",
): PreparedSend {
  return {
    accountId,
    senderName: SENDER,
    body: "Store contract",
    control: { priority: "normal", sendAt: null, validityPeriod: null },
    encoding: "gsm7",
    segments: 1,
    recipients: Array.from({ length: recipients }, (_, index) => ({ to: `+2637712300${String(index).padStart(2, "0")}`, operator })),
    webhookUrl: null,
    actor: `key:${apiKeyId}`,
    apiKeyId,
    userId: null,
    test: false,
    bulk: false,
    ...options,
  };
}

function accepted(outcome: unknown): AcceptedSend {
  if (outcome instanceof Error) throw outcome;
  return outcome as AcceptedSend;
}

describe("MessageStore", () => {
  it("commitSends: accepts and refuses each send on its own, holding each accepted charge in the ledger", async () => {
    const accountId = await createSendingAccount(1_000n);
    const keyId = await keyOf(accountId);
    const revoked = await keyOf(accountId);
    await revokeApiKey({ accountId, keyId: revoked, actor: "test" });

    const outcomes = await getStores().messages.commitSends(
      [
        prepared(accountId, keyId, 2),
        prepared(accountId, keyId, 1), // 350 more than the 300 left
        prepared(accountId, revoked, 1),
        prepared(accountId, keyId, 1, { senderName: "NOPE" }),
        prepared(accountId, keyId, 3, { test: true }),
      ],
      priceSend,
    );

    expect(outcomes.map((outcome) => (outcome instanceof AppError ? outcome.code : "accepted"))).toEqual([
      "accepted",
      "INSUFFICIENT_BALANCE",
      "UNAUTHORIZED",
      "BAD_REQUEST",
      "accepted",
    ]);
    const live = accepted(outcomes[0]);
    expect(live.charge).toBe(2n * ECONET);
    expect(accepted(outcomes[4]).messages).toHaveLength(3);
    expect((await db().account.findUniqueOrThrow({ where: { id: accountId } })).balance).toBe(1_000n - 2n * ECONET);
    const holds = await db().ledgerEntry.findMany({ where: { accountId, kind: "hold" } });
    expect(holds.map((hold) => hold.messageId).sort()).toEqual(live.messages.map((message) => message.id).sort());
    expect(await db().message.count({ where: { accountId } })).toBe(5);
  });

  it("commitSends: writes an Idempotency-Key's record with its send, and refuses a send whose key is taken", async () => {
    const accountId = await createSendingAccount();
    const keyId = await keyOf(accountId);
    const record = (key: string) => ({
      key,
      requestHash: "hash",
      keptForMs: 60_000,
      response: (send: AcceptedSend) => ({ status: 202, body: send.messages[0].id }),
    });
    const [first] = await getStores().messages.commitSends([prepared(accountId, keyId, 1, { idempotency: record("k1") })], priceSend);
    const stored = await db().idempotencyKey.findUniqueOrThrow({ where: { accountId_key: { accountId, key: "k1" } } });
    expect(stored).toMatchObject({ responseStatus: 202, responseBody: accepted(first).messages[0].id, requestHash: "hash" });

    const [again, other] = await getStores().messages.commitSends(
      [prepared(accountId, keyId, 1, { idempotency: record("k1") }), prepared(accountId, keyId, 1, { idempotency: record("k2") })],
      priceSend,
    );
    expect(again).toBeInstanceOf(IdempotencyKeyTakenError);
    expect(accepted(other).messages).toHaveLength(1);
    expect(await db().message.count({ where: { accountId } })).toBe(2);

    // A refused send leaves no record.
    const [refused] = await getStores().messages.commitSends(
      [prepared(accountId, keyId, 1, { senderName: "NOPE", idempotency: record("k3") })],
      priceSend,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect(await db().idempotencyKey.count({ where: { accountId, key: "k3" } })).toBe(0);
  });

  it("commitSends: one batch of several accounts, live and test, single and bulk, with and without Idempotency-Keys", async () => {
    const first = await createSendingAccount(10_000n, "First");
    const second = await createSendingAccount(1_000n, "Second");
    const firstKey = await keyOf(first);
    const firstTestKey = await keyOf(first, "test");
    const secondKey = await keyOf(second);
    const record = (key: string) => ({
      key,
      requestHash: `hash of ${key}`,
      keptForMs: 60_000,
      response: (send: AcceptedSend) => ({ status: 202, body: `${send.messages.length} messages` }),
    });
    const batch = [
      prepared(first, firstKey, 2, { idempotency: record("shape-1") }),
      prepared(second, secondKey, 1),
      prepared(first, firstTestKey, 2, { test: true, idempotency: record("shape-2") }),
      prepared(first, firstKey, 4, { bulk: true }),
      prepared(second, secondKey, 3), // 1,050 against the 650 left
      prepared(first, firstKey, 1, { idempotency: record("shape-1") }), // the same key again in the batch
      prepared(second, secondKey, 1, { idempotency: record("shape-1") }), // the same key, another account's
    ];
    const outcomes = await getStores().messages.commitSends(batch, priceSend);
    expect(
      outcomes.map((outcome) => (outcome instanceof AppError ? outcome.code : outcome instanceof Error ? "taken" : "accepted")),
    ).toEqual(["accepted", "accepted", "accepted", "accepted", "INSUFFICIENT_BALANCE", "taken", "accepted"]);
    expect((await db().account.findUniqueOrThrow({ where: { id: first } })).balance).toBe(10_000n - 6n * ECONET);
    expect((await db().account.findUniqueOrThrow({ where: { id: second } })).balance).toBe(1_000n - 2n * ECONET);

    // Each account's holds in batch order, each one's balance after it one charge below the one before.
    for (const [accountId, opening] of [
      [first, 10_000n],
      [second, 1_000n],
    ] as const) {
      const holds = await db().ledgerEntry.findMany({ where: { accountId, kind: "hold" }, orderBy: { id: "asc" } });
      let balance = opening;
      for (const hold of holds) {
        balance += hold.amount;
        expect(hold.balanceAfter).toBe(balance);
      }
    }
    const bulk = accepted(outcomes[3]);
    expect(await db().bulkSend.findUniqueOrThrow({ where: { id: bulk.bulkSendId! } })).toMatchObject({
      accountId: first,
      total: 4,
      charge: 4n * ECONET,
    });
    const bulkHolds = await db().ledgerEntry.findMany({ where: { bulkSendId: bulk.bulkSendId } });
    expect(bulkHolds.map((hold) => hold.messageId).sort()).toEqual(bulk.messages.map((message) => message.id).sort());
    const testMessages = await db().message.findMany({ where: { accountId: first, test: true } });
    expect(testMessages).toHaveLength(2);
    expect(await db().ledgerEntry.count({ where: { messageId: { in: testMessages.map((message) => message.id) } } })).toBe(0);
    const keys = await db().idempotencyKey.findMany({
      where: { key: { in: ["shape-1", "shape-2"] } },
      orderBy: [{ accountId: "asc" }, { key: "asc" }],
    });
    expect(keys.map((key) => [key.accountId === first ? "first" : "second", key.key, key.responseBody]).sort()).toEqual([
      ["first", "shape-1", "2 messages"],
      ["first", "shape-2", "2 messages"],
      ["second", "shape-1", "1 messages"],
    ]);
    expect(await db().message.count({ where: { accountId: { in: [first, second] } } })).toBe(2 + 1 + 2 + 4 + 1);
  });

  it("commitSends: each message keeps its own send's fields when the sends of one batch differ", async () => {
    const accountId = await createSendingAccount();
    const keyId = await keyOf(accountId);
    await db().senderId.create({ data: { accountId, name: "OTHER", nameKey: "OTHER", status: "approved" } });
    const sendAt = new Date(Date.now() + 3_600_000);
    const batch = [
      prepared(accountId, keyId, 1),
      prepared(accountId, keyId, 1, { senderName: "OTHER", body: "Another body", webhookUrl: "https://example.com/hook" }),
      prepared(accountId, keyId, 1, { control: { priority: "high", sendAt: null, validityPeriod: 600 } }),
      prepared(accountId, keyId, 1, { control: { priority: "normal", sendAt, validityPeriod: 120 }, userId: null, actor: "user:someone" }),
    ];
    const outcomes = await getStores().messages.commitSends(batch, priceSend);
    const ids = outcomes.map((outcome) => accepted(outcome).messages[0].id);
    const rows = await db().message.findMany({ where: { id: { in: ids } } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    const [plain, other, urgent, scheduled] = ids.map((id) => byId.get(id)!);

    expect(plain).toMatchObject({ senderId: SENDER, body: "Store contract", webhookUrl: null, priority: "normal", status: "enqueued" });
    expect(plain).toMatchObject({ sendAt: null, validityPeriod: null, expiresAt: null, apiKeyId: keyId });
    expect(other).toMatchObject({ senderId: "OTHER", body: "Another body", webhookUrl: "https://example.com/hook", priority: "normal" });
    expect(urgent).toMatchObject({ priority: "high", status: "enqueued", validityPeriod: 600 });
    expect(urgent.expiresAt!.getTime()).toBe(urgent.createdAt.getTime() + 600_000);
    expect(urgent.nextAttemptAt.getTime()).toBe(urgent.createdAt.getTime());
    expect(scheduled).toMatchObject({ status: "created", validityPeriod: 120, sendAt });
    expect(scheduled.nextAttemptAt).toEqual(sendAt);
    expect(scheduled.expiresAt!.getTime()).toBe(sendAt.getTime() + 120_000);
    for (const [index, id] of ids.entries()) {
      expect(byId.get(id)!.turn).toBe(BigInt(accepted(outcomes[index]).messages[0].turn));
    }
    const holds = await db().ledgerEntry.findMany({ where: { messageId: { in: ids } } });
    expect(new Map(holds.map((hold) => [hold.messageId, hold.actor])).get(scheduled.id)).toBe("user:someone");
    expect(holds.filter((hold) => hold.actor === `key:${keyId}`)).toHaveLength(3);
  });

  it("commitSends: single sends of one profile store what the same sends store in a batch of several profiles", async () => {
    const accountId = await createSendingAccount(100_000n);
    const keyId = await keyOf(accountId);
    const testKeyId = await keyOf(accountId, "test");
    const sendAt = new Date(Date.now() + 3_600_000);
    const record = (key: string) => ({ key, requestHash: key, keptForMs: 60_000, response: () => ({ status: 202, body: key }) });
    // What the sends of each profile share: an API key's live sends, a dashboard user's, a test key's.
    const profiles: Array<Partial<PreparedSend> & Pick<PreparedSend, "control">> = [
      { control: { priority: "high", sendAt: null, validityPeriod: 600 } },
      {
        apiKeyId: null,
        userId: "dashboard-user",
        actor: "user:dashboard-user",
        webhookUrl: "https://example.com/hook",
        control: { priority: "normal", sendAt: null, validityPeriod: null },
      },
      { apiKeyId: testKeyId, actor: `key:${testKeyId}`, test: true, control: { priority: "normal", sendAt: null, validityPeriod: 300 } },
    ];
    // One profile's sends; bodies, segments, encodings and schedules differ.
    const singles = (profile: (typeof profiles)[number], batch: string) => [
      prepared(accountId, keyId, 1, { ...profile, body: `${batch} first` }),
      prepared(accountId, keyId, 1, {
        ...profile,
        control: { ...profile.control, sendAt },
        body: `${batch} second`,
        segments: 2,
        idempotency: record(`${batch} ${profiles.indexOf(profile)}`),
      }),
      prepared(accountId, keyId, 1, { ...profile, body: `${batch} third`, encoding: "ucs2" }),
    ];
    const stored = async (outcomes: unknown[]) => {
      const ids = outcomes.map((outcome) => accepted(outcome).messages[0].id);
      const rows = await db().message.findMany({ where: { id: { in: ids } } });
      const holds = await db().ledgerEntry.findMany({ where: { messageId: { in: ids } } });
      return ids.map((id) => {
        const row = rows.find((message) => message.id === id)!;
        const hold = holds.find((entry) => entry.messageId === id);
        const start = (row.sendAt ?? row.createdAt).getTime();
        return {
          ...row,
          id: undefined,
          body: row.body.split(" ")[1],
          createdAt: undefined,
          updatedAt: undefined,
          receivedAt: row.receivedAt.getTime() === row.createdAt.getTime(),
          turn: typeof row.turn,
          nextAttemptAt: row.nextAttemptAt.getTime() - start,
          expiresAt: row.expiresAt && row.expiresAt.getTime() - start,
          hold: hold && {
            ...hold,
            id: undefined,
            messageId: undefined,
            balanceAfter: undefined,
            createdAt: hold.createdAt.getTime() === row.createdAt.getTime(),
          },
        };
      });
    };

    const byProfile = [];
    for (const profile of profiles) {
      const alone = await getStores().messages.commitSends(singles(profile, "alone"), priceSend);
      // Beside a send of the other mode: two profiles, one of them live.
      const otherMode = profile.test ? prepared(accountId, keyId, 1) : prepared(accountId, testKeyId, 1, { test: true });
      const mixed = await getStores().messages.commitSends([...singles(profile, "mixed"), otherMode], priceSend);
      const aloneRows = await stored(alone);
      expect(aloneRows).toEqual((await stored(mixed)).slice(0, 3));
      byProfile.push(aloneRows);
    }
    const [keyRows, dashboardRows, testRows] = byProfile;
    expect(keyRows.map((row) => [row.status, row.segments, row.encoding, row.priority, row.expiresAt, row.hold?.amount])).toEqual([
      ["enqueued", 1, "gsm7", "high", 600_000, -ECONET],
      ["created", 2, "gsm7", "high", 600_000, -2n * ECONET],
      ["enqueued", 1, "ucs2", "high", 600_000, -ECONET],
    ]);
    expect(keyRows[0]).toMatchObject({
      apiKeyId: keyId,
      userId: null,
      webhookUrl: null,
      hold: { actor: `key:${keyId}`, kind: "hold", bulkSendId: null },
    });
    for (const row of dashboardRows) {
      expect(row).toMatchObject({ apiKeyId: null, userId: "dashboard-user", webhookUrl: "https://example.com/hook", validityPeriod: null });
      expect(row).toMatchObject({ expiresAt: null, priority: "normal", hold: { actor: "user:dashboard-user", accountId } });
    }
    expect(testRows.map((row) => [row.test, row.apiKeyId, row.status, row.expiresAt, row.hold])).toEqual([
      [true, testKeyId, "enqueued", 300_000, undefined],
      [true, testKeyId, "created", 300_000, undefined],
      [true, testKeyId, "enqueued", 300_000, undefined],
    ]);
    expect(await db().idempotencyKey.count({ where: { accountId } })).toBe(2 * profiles.length);
    // The balance after each hold follows the batches' order.
    const holds = await db().ledgerEntry.findMany({ where: { accountId, kind: "hold" }, orderBy: { id: "asc" } });
    expect(holds).toHaveLength(2 * 2 * 3 + 1);
    let balance = 100_000n;
    for (const hold of holds) {
      balance += hold.amount;
      expect(hold.balanceAfter).toBe(balance);
    }
    expect((await db().account.findUniqueOrThrow({ where: { id: accountId } })).balance).toBe(balance);

    // Test sends of several profiles hold nothing.
    const testOutcomes = await getStores().messages.commitSends(
      [prepared(accountId, testKeyId, 1, { test: true }), prepared(accountId, testKeyId, 2, { test: true, bulk: true })],
      priceSend,
    );
    const testIds = testOutcomes.flatMap((outcome) => accepted(outcome).messages.map((message) => message.id));
    expect(await db().message.count({ where: { id: { in: testIds }, test: true, status: "enqueued" } })).toBe(3);
    expect(await db().ledgerEntry.count({ where: { messageId: { in: testIds } } })).toBe(0);
    expect((await db().account.findUniqueOrThrow({ where: { id: accountId } })).balance).toBe(balance);
  });

  it("readMessages: found in the key's account and mode only, refused for an unusable key", async () => {
    const accountId = await createSendingAccount();
    const otherAccount = await createSendingAccount(1_000_000n, "Other");
    const live = await keyOf(accountId);
    const test = await keyOf(accountId, "test");
    const other = await keyOf(otherAccount);
    const revoked = await keyOf(accountId);
    await revokeApiKey({ accountId, keyId: revoked, actor: "test" });
    const [liveSend, testSend] = await getStores().messages.commitSends(
      [prepared(accountId, live, 1), prepared(accountId, test, 1, { test: true })],
      priceSend,
    );
    const liveId = accepted(liveSend).messages[0].id;
    const testId = accepted(testSend).messages[0].id;

    const results = await getStores().messages.readMessages([
      { keyId: live, id: liveId },
      { keyId: test, id: testId },
      { keyId: test, id: liveId },
      { keyId: live, id: testId },
      { keyId: other, id: liveId },
      { keyId: revoked, id: liveId },
      { keyId: "no-such-key", id: liveId },
    ]);
    expect(results.map((result) => result.kind)).toEqual([
      "found",
      "found",
      "not-found",
      "not-found",
      "not-found",
      "unusable-key",
      "unusable-key",
    ]);
    const [found] = results;
    if (found.kind !== "found") throw new Error("expected the live message");
    expect(found.message).toMatchObject({ id: liveId, status: "enqueued", charge: ECONET, deliveredAt: null });
    expect(found.message.receivedAt).toBeInstanceOf(Date);
  });
});

describe("DeliveryStore", () => {
  it("claim: leases due messages of one carrier and mode once, with typed values", async () => {
    const accountId = await createSendingAccount();
    const keyId = await keyOf(accountId);
    // Each test of the queue uses a carrier of its own: the database is shared by the file.
    await getStores().messages.commitSends([prepared(accountId, keyId, 3, {}, "telecel")], priceSend);
    const claim = { owner: "store-a", operator: "telecel", test: false, limit: 2, leaseMs: 60_000 };

    const first = await getStores().delivery.claim(claim);
    const second = await getStores().delivery.claim({ ...claim, owner: "store-b" });
    const third = await getStores().delivery.claim(claim);
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(1);
    expect(third).toEqual([]);
    expect(first[0]).toMatchObject({ accountId, operator: "telecel", test: false, attempts: 1, webhookUrl: null, operatorResponse: "" });
    expect(await getStores().delivery.claim({ ...claim, test: true })).toEqual([]);
    const leased = await db().message.findMany({ where: { accountId }, orderBy: { id: "asc" } });
    expect(leased.map((message) => message.leaseOwner).sort()).toEqual(["store-a", "store-a", "store-b"]);
    expect(leased.every((message) => message.status === "processing")).toBe(true);
  });

  it("readQueueState: the latest normal turn claimed, and whether anything waits, per carrier and mode", async () => {
    const accountId = await createSendingAccount();
    const keyId = await keyOf(accountId, "test");
    const queue = { operator: "netone", test: true, normalTurnsAfter: Date.now() - 3_600_000 };
    expect(await getStores().delivery.readQueueState(queue)).toEqual({ servingTurn: null, queued: false });

    await getStores().messages.commitSends([prepared(accountId, keyId, 3, { test: true }, "netone")], priceSend);
    expect(await getStores().delivery.readQueueState(queue)).toEqual({ servingTurn: null, queued: true });
    const claimed = await getStores().delivery.claim({ owner: "store-q", operator: "netone", test: true, limit: 2, leaseMs: 60_000 });
    const turns = await db().message.findMany({ where: { id: { in: claimed.map((message) => message.id) } }, select: { turn: true } });
    const latest = Math.max(...turns.map((message) => Number(message.turn)));
    expect(await getStores().delivery.readQueueState(queue)).toEqual({ servingTurn: latest, queued: true });
    expect(await getStores().delivery.readQueueState({ ...queue, test: false })).toMatchObject({ servingTurn: null });
    expect(await getStores().delivery.readQueueState({ ...queue, normalTurnsAfter: latest })).toMatchObject({
      servingTurn: null,
    });
  });

  it("recordAcceptances: land only under the lease, with their parts; `then` commits with them, or undoes them by throwing", async () => {
    const accountId = await createSendingAccount();
    const keyId = await keyOf(accountId);
    await getStores().messages.commitSends([prepared(accountId, keyId, 3, {}, "netone")], priceSend);
    const [mine, theirs, undone] = await getStores().delivery.claim({
      owner: "store-a",
      operator: "netone",
      test: false,
      limit: 3,
      leaseMs: 60_000,
    });

    // Alone: the usual batch.
    const alone = await getStores().delivery.recordAcceptances(
      [acceptance(mine.id, "store-a", ["c-mine-1", "c-mine-2"]), acceptance(theirs.id, "store-b")],
      new Date(),
      null,
    );
    expect(alone).toEqual({ landed: [mine.id], then: null });
    expect((await db().message.findUniqueOrThrow({ where: { id: mine.id } })).status).toBe("success");
    expect((await db().message.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe("processing");
    const parts = await db().messagePart.findMany({ where: { messageId: mine.id }, orderBy: { partNumber: "asc" } });
    expect(parts.map((part) => [part.partNumber, part.carrierMessageId, part.status])).toEqual([
      [1, "c-mine-1", "submitted"],
      [2, "c-mine-2", "submitted"],
    ]);

    // With the rest of the batch: `then` sees what landed, in the same transaction.
    await expect(
      getStores().delivery.recordAcceptances([acceptance(undone.id, "store-a")], new Date(), async (tx, landed) => {
        expect(landed).toEqual([undone.id]);
        expect((await tx.get(`SELECT "status" FROM "Message" WHERE "id" = ?`, [undone.id]))?.status).toBe("success");
        throw new Error("the rest of the batch failed");
      }),
    ).rejects.toThrow("the rest of the batch failed");
    expect((await db().message.findUniqueOrThrow({ where: { id: undone.id } })).status).toBe("processing");
    expect(await db().messagePart.count({ where: { messageId: undone.id } })).toBe(0);

    const withRest = await getStores().delivery.recordAcceptances([acceptance(undone.id, "store-a")], new Date(), async (_tx, landed) =>
      landed.map((id) => `rest of ${id}`),
    );
    expect(withRest).toEqual({ landed: [undone.id], then: [`rest of ${undone.id}`] });
    expect(await getStores().delivery.recordAcceptances([], new Date(), async (_tx, landed) => landed.length)).toEqual({
      landed: [],
      then: 0,
    });
  });

  it("findParts and recordPartChanges: typed parts; a message is delivered once every part is, receipts of its parts recorded at once", async () => {
    const accountId = await createSendingAccount();
    const keyId = await keyOf(accountId);
    await getStores().messages.commitSends(
      [prepared(accountId, keyId, 3, { webhookUrl: "https://example.test/hook" }, "econet")],
      priceSend,
    );
    // Econet's queue also holds the other tests' messages: this account's are claimed with them.
    const everyEconet = await getStores().delivery.claim({
      owner: "store-r",
      operator: "econet",
      test: false,
      limit: 100,
      leaseMs: 60_000,
    });
    const claimed = everyEconet.filter((message) => message.accountId === accountId);
    expect(claimed).toHaveLength(3);
    const [twoParts, racing, single] = claimed;
    await getStores().delivery.recordAcceptances(
      [
        acceptance(twoParts.id, "store-r", ["r-two-1", "r-two-2"], "econet"),
        acceptance(racing.id, "store-r", ["r-race-1", "r-race-2", "r-race-3"], "econet"),
        acceptance(single.id, "store-r", ["r-single"], "econet"),
      ],
      new Date(),
      null,
    );
    const found = await getStores().delivery.findParts("econet", [
      "r-two-1",
      "r-two-2",
      "r-race-1",
      "r-race-2",
      "r-race-3",
      "r-single",
      "r-none",
    ]);
    expect(await getStores().delivery.findParts("netone", ["r-single"])).toEqual([]);
    expect(found).toHaveLength(6);
    const part = (carrierId: string) => found.find((candidate) => candidate.carrierMessageId === carrierId)!;
    expect(part("r-single")).toMatchObject({
      messageId: single.id,
      status: "submitted",
      accountId,
      webhookUrl: "https://example.test/hook",
    });
    expect(part("r-single").createdAt).toBeInstanceOf(Date);
    const change = (carrierId: string, status: "delivered" | "failed" | "submitted", stat = "DELIVRD") => ({
      partId: part(carrierId).id,
      status,
      stat,
      err: null,
    });

    // One part of two delivered, an intermediate state, a failure: nothing delivered yet.
    const first = await getStores().delivery.recordPartChanges(
      [change("r-two-1", "delivered"), change("r-two-2", "submitted", "ENROUTE"), change("r-single", "failed", "UNDELIV")],
      new Date(),
      async (_tx, delivered) => delivered.length,
    );
    expect(first).toEqual({ delivered: [], then: 0 });
    expect((await db().messagePart.findUniqueOrThrow({ where: { id: part("r-two-2").id } })).receiptStat).toBe("ENROUTE");
    expect((await db().messagePart.findUniqueOrThrow({ where: { id: part("r-single").id } })).status).toBe("failed");

    // The second part: the message is delivered, typed. A change of a part no longer "submitted" changes nothing.
    const second = await getStores().delivery.recordPartChanges(
      [change("r-two-2", "delivered"), change("r-single", "delivered")],
      new Date(),
      null,
    );
    expect(second).toEqual({
      delivered: [
        {
          id: twoParts.id,
          accountId,
          operator: "econet",
          webhookUrl: "https://example.test/hook",
          test: false,
          dispatchedAt: (await db().message.findUniqueOrThrow({ where: { id: twoParts.id } })).dispatchedAt,
        },
      ],
      then: null,
    });
    expect((await db().messagePart.findUniqueOrThrow({ where: { id: part("r-single").id } })).status).toBe("failed");
    expect((await db().message.findUniqueOrThrow({ where: { id: twoParts.id } })).deliveredAt).toBeInstanceOf(Date);
    expect((await db().message.findUniqueOrThrow({ where: { id: single.id } })).deliveredAt).toBeNull();

    // Three receipts of three parts of one message, each recorded on its own at once: exactly one delivers it.
    const raced = await Promise.all(
      ["r-race-1", "r-race-2", "r-race-3"].map((carrierId) =>
        getStores().delivery.recordPartChanges([change(carrierId, "delivered")], new Date(), null),
      ),
    );
    expect(raced.flatMap((result) => result.delivered.map((message) => message.id))).toEqual([racing.id]);
    expect((await db().message.findUniqueOrThrow({ where: { id: racing.id } })).operatorResponse).toBe("DELIVRD");
  });
});

function acceptance(messageId: string, owner: string, carrierMessageIds = [`c-${messageId}`], operator = "netone") {
  return { messageId, operator, owner, startedAt: new Date(), response: "ESME_ROK", carrierMessageIds };
}

describe("WebhookStore", () => {
  it("claim: leases a due delivery once, with typed values", async () => {
    const accountId = await createSendingAccount();
    const keyId = await keyOf(accountId);
    const [sent] = await getStores().messages.commitSends([prepared(accountId, keyId, 1)], priceSend);
    const messageId = accepted(sent).messages[0].id;
    const at = new Date(Date.now() - 1000);
    await db().webhookDelivery.create({
      data: { accountId, messageId, url: "https://example.test/hook", eventType: "message.success", payload: "{}", nextAttemptAt: at },
    });

    const first = await getStores().webhooks.claim({ limit: 10, leaseMs: 60_000 });
    const second = await getStores().webhooks.claim({ limit: 10, leaseMs: 60_000 });
    expect(first.filter((delivery) => delivery.messageId === messageId)).toEqual([
      expect.objectContaining({ accountId, url: "https://example.test/hook", eventType: "message.success", attempts: 0 }),
    ]);
    expect(second.filter((delivery) => delivery.messageId === messageId)).toEqual([]);
  });
});

describe("KeyStore", () => {
  it("findUnusable: revoked, expired and unknown keys, in a transaction or not", async () => {
    const accountId = await createSendingAccount();
    const usable = await keyOf(accountId);
    const revoked = await keyOf(accountId);
    const expired = await keyOf(accountId);
    await revokeApiKey({ accountId, keyId: revoked, actor: "test" });
    await db().apiKey.update({ where: { id: expired }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const ids = [usable, revoked, expired, "no-such-key"];
    expect(await getStores().keys.findUnusable(sql(), ids, new Date())).toEqual(new Set([revoked, expired, "no-such-key"]));
    const held = await sql().transaction((tx) => getStores().keys.findUnusable(tx, ids, new Date(), { holdUntilCommit: true }));
    expect(held).toEqual(new Set([revoked, expired, "no-such-key"]));
  });
});
