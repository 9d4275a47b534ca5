// The stores' contract: every operation of each engine's store, called directly, against the same
// expectations (the suite runs once per engine: TEST_DB=sqlite, TEST_DB=postgres).
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { getStores } from "@/lib/db/stores";
import { toDbTime } from "@/lib/db/sql";
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
    const queue = { operator: "netone", test: true, normalTurnsAfter: new Date(Date.now() - 3_600_000) };
    expect(await getStores().delivery.readQueueState(queue)).toEqual({ servingTurn: null, queued: false });

    await getStores().messages.commitSends([prepared(accountId, keyId, 3, { test: true }, "netone")], priceSend);
    expect(await getStores().delivery.readQueueState(queue)).toEqual({ servingTurn: null, queued: true });
    const claimed = await getStores().delivery.claim({ owner: "store-q", operator: "netone", test: true, limit: 2, leaseMs: 60_000 });
    const turns = await db().message.findMany({ where: { id: { in: claimed.map((message) => message.id) } }, select: { turnAt: true } });
    const latest = Math.max(...turns.map((message) => message.turnAt!.getTime()));
    expect(await getStores().delivery.readQueueState(queue)).toEqual({ servingTurn: new Date(latest), queued: true });
    expect(await getStores().delivery.readQueueState({ ...queue, test: false })).toMatchObject({ servingTurn: null });
    expect(await getStores().delivery.readQueueState({ ...queue, normalTurnsAfter: new Date(latest) })).toMatchObject({
      servingTurn: null,
    });
  });

  it("recordOutcomes: acceptances land only under the lease; any other batch is the transaction's", async () => {
    const accountId = await createSendingAccount();
    const keyId = await keyOf(accountId);
    await getStores().messages.commitSends([prepared(accountId, keyId, 2, {}, "netone")], priceSend);
    const [mine, theirs] = await getStores().delivery.claim({
      owner: "store-a",
      operator: "netone",
      test: false,
      limit: 2,
      leaseMs: 60_000,
    });
    const acceptance = (messageId: string, owner: string) => ({
      messageId,
      operator: "netone",
      owner,
      startedAt: new Date(),
      response: "ESME_ROK",
      carrierMessageIds: [`c-${messageId}`],
    });
    const landed = await getStores().delivery.recordOutcomes(
      [acceptance(mine.id, "store-a"), acceptance(theirs.id, "store-b")],
      new Date(),
      async (tx) => {
        // The transaction's own recording, as the domain does it: the lease is the guard.
        const at = toDbTime(new Date());
        const ids: string[] = [];
        for (const [id, owner] of [
          [mine.id, "store-a"],
          [theirs.id, "store-b"],
        ]) {
          const changed = await tx.run(
            `UPDATE "Message" SET "status" = 'success', "leaseOwner" = NULL, "updatedAt" = ? WHERE "id" = ? AND "leaseOwner" = ? AND "status" = 'processing'`,
            [at, id, owner],
          );
          if (changed > 0) {
            await tx.run(
              `INSERT INTO "MessagePart" ("id", "messageId", "partNumber", "operator", "carrierMessageId", "status", "createdAt") VALUES (?, ?, 1, 'netone', ?, 'submitted', ?)`,
              [crypto.randomUUID(), id, `c-${id}`, at],
            );
            ids.push(id);
          }
        }
        return ids;
      },
    );
    expect(landed).toEqual([mine.id]);
    expect((await db().message.findUniqueOrThrow({ where: { id: mine.id } })).status).toBe("success");
    expect((await db().message.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe("processing");
    expect(await db().messagePart.count({ where: { messageId: { in: [mine.id, theirs.id] } } })).toBe(1);

    const viaTransaction = await getStores().delivery.recordOutcomes(null, new Date(), async () => ["from the transaction"]);
    expect(viaTransaction).toEqual(["from the transaction"]);
  });

  it("recordReceipts: a batch that is not plain is the transaction's, whose answer is returned", async () => {
    const result = await getStores().delivery.recordReceipts(
      async () => null,
      new Date(),
      async (tx) => (await tx.get<{ one: number }>(`SELECT 1 AS "one"`))?.one,
    );
    expect(Number(result)).toBe(1);
  });
});

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
