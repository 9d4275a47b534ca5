// A group-committed batch of single sends, as one account sends them: every message and hold lands
// with its own balance after it, and a key revoked or a balance spent while the batch is being
// written refuses what it must and writes nothing for it. On PostgreSQL such a batch is written by
// one statement (lib/db/stores/postgres/message-store.ts); these hold on both engines.
import { describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { acceptMessages, type AcceptMessagesInput } from "@/lib/messages/accept-messages";
import pg from "pg";
import { getStores } from "@/lib/db/stores";
import { priceSend } from "@/lib/messages/commit-sends";
import { IdempotencyKeyTakenError, type AcceptedSend, type PreparedSend } from "@/lib/model/sends";
import { AppError } from "@/lib/errors";
import { seedAccount, type SeededAccount } from "../helpers/api-test-server";
import { testDatabaseKind, useTestDatabase } from "../helpers/test-database";

const database = useTestDatabase();

/**
 * Runs `work` while another connection's transaction holds `statement` uncommitted, and commits it
 * once work waits for one of its locks: work has read the state before the change and writes after it.
 */
async function whileAnotherTransactionHolds<T>(statement: string, params: unknown[], work: () => Promise<T>): Promise<T> {
  const other = new pg.Client({ connectionString: database.current().url });
  await other.connect();
  try {
    await other.query("BEGIN");
    await other.query(statement, params);
    const running = work();
    for (;;) {
      const { rows } = await other.query(
        `SELECT COUNT(*) AS "waiting" FROM pg_stat_activity WHERE "datname" = current_database() AND "wait_event_type" = 'Lock'`,
      );
      if (Number(rows[0].waiting) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await other.query("COMMIT");
    return await running;
  } finally {
    await other.end();
  }
}

const ECONET = 350n;
const NETONE = 300n;

function singleSend(account: SeededAccount, to: string, body = "batch"): AcceptMessagesInput {
  return {
    accountId: account.accountId,
    from: "ACME",
    body,
    recipients: [to],
    actor: `key:${account.keyId}`,
    apiKeyId: account.keyId,
    mode: "live",
    kind: "single",
  };
}

async function ledgerOf(accountId: string) {
  return db().ledgerEntry.findMany({ where: { accountId, kind: "hold" }, orderBy: { id: "asc" } });
}

describe("a batch of single sends of one account", () => {
  it("stores every message and its hold, each hold's balance after it one charge below the one before", async () => {
    const account = await seedAccount({ balance: 100_000n });
    const recipients = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0 ? `+26371${String(2000000 + i)}` : `+26377${String(2000000 + i)}`,
    );
    const sent = await Promise.all(recipients.map((to, i) => acceptMessages(singleSend(account, to, `batch ${i}`))));

    const holds = await ledgerOf(account.accountId);
    expect(holds).toHaveLength(30);
    const messages = await db().message.findMany({ where: { accountId: account.accountId } });
    expect(new Map(messages.map((message) => [message.id, message.body]))).toEqual(
      new Map(sent.map((send, i) => [send.messages[0].id, `batch ${i}`])),
    );
    const byId = new Map(messages.map((message) => [message.id, message]));
    let balance = 100_000n;
    for (const hold of holds) {
      const message = byId.get(hold.messageId!)!;
      expect(hold.amount).toBe(-message.charge);
      expect(message.charge).toBe(message.operator === "netone" ? NETONE : ECONET);
      balance -= message.charge;
      expect(hold.balanceAfter).toBe(balance);
    }
    const stored = await db().account.findUniqueOrThrow({ where: { id: account.accountId } });
    expect(stored.balance).toBe(balance);
    expect(balance).toBe(100_000n - 10n * NETONE - 20n * ECONET);
  });

  it("refuses, writing nothing, the sends of a key revoked while the batch waited for it", async () => {
    const account = await seedAccount({ balance: 100_000n });
    let pending: Promise<unknown> | undefined;
    let settled = false;
    await sql().transaction(async (tx) => {
      // The revoke is written but not committed: the batch must wait for it, then see it.
      await tx.run(`UPDATE "ApiKey" SET "active" = false WHERE "id" = ?`, [account.keyId]);
      pending = Promise.allSettled([
        acceptMessages(singleSend(account, "+263771111111")),
        acceptMessages(singleSend(account, "+263772222222")),
      ]);
      void pending.then(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false);
    });
    const results = (await pending) as PromiseSettledResult<unknown>[];
    for (const result of results) {
      expect(result.status).toBe("rejected");
      expect(((result as PromiseRejectedResult).reason as AppError).code).toBe("UNAUTHORIZED");
    }
    expect(await db().message.count({ where: { accountId: account.accountId } })).toBe(0);
    expect(await ledgerOf(account.accountId)).toHaveLength(0);
    expect((await db().account.findUniqueOrThrow({ where: { id: account.accountId } })).balance).toBe(100_000n);
  });

  it.skipIf(testDatabaseKind() === "sqlite")(
    "PostgreSQL: a batch whose balance, key or Idempotency-Key another transaction changes before the write is read and priced again",
    async () => {
      const account = await seedAccount({ balance: 1_000n });
      await acceptMessages(singleSend(account, "+263773333333"));
      const before = { messages: await db().message.count(), holds: (await ledgerOf(account.accountId)).length };
      const send = (idempotencyKey?: string): PreparedSend => ({
        accountId: account.accountId,
        senderName: "ACME",
        body: "direct",
        control: { priority: "normal", sendAt: null, validityPeriod: null },
        encoding: "gsm7",
        segments: 1,
        recipients: [{ to: "+263773333333", operator: "econet" }],
        webhookUrl: null,
        actor: `key:${account.keyId}`,
        apiKeyId: account.keyId,
        userId: null,
        test: false,
        bulk: false,
        idempotency: idempotencyKey
          ? { key: idempotencyKey, requestHash: "ours", keptForMs: 60_000, response: () => ({ status: 202, body: "ours" }) }
          : null,
      });

      // The sends read the account before the other transaction commits, and their write waits for it:
      // priced again, what the other left covers the first send only.
      await sql().run(`UPDATE "Account" SET "balance" = 10000 WHERE "id" = ?`, [account.accountId]);
      const spent = await whileAnotherTransactionHolds(`UPDATE "Account" SET "balance" = 400 WHERE "id" = $1`, [account.accountId], () =>
        getStores().messages.commitSends([send(), send(), send()], priceSend),
      );
      expect(spent.map((outcome) => (outcome instanceof AppError ? outcome.code : "accepted"))).toEqual([
        "accepted",
        "INSUFFICIENT_BALANCE",
        "INSUFFICIENT_BALANCE",
      ]);
      const spentHolds = (await ledgerOf(account.accountId)).slice(before.holds);
      expect(spentHolds.map((hold) => [hold.messageId, hold.amount, hold.balanceAfter])).toEqual([
        [(spent[0] as AcceptedSend).messages[0].id, -ECONET, 400n - ECONET],
      ]);
      expect((await db().account.findUniqueOrThrow({ where: { id: account.accountId } })).balance).toBe(400n - ECONET);
      await sql().run(`UPDATE "Account" SET "balance" = 1000 - 350 WHERE "id" = ?`, [account.accountId]);

      const taken = await whileAnotherTransactionHolds(
        `INSERT INTO "IdempotencyKey" ("accountId", "key", "requestHash", "responseStatus", "responseBody", "createdAt", "expiresAt")
         VALUES ($1, 'race', 'theirs', 202, 'theirs', now(), now() + interval '1 hour')`,
        [account.accountId],
        () => getStores().messages.commitSends([send("race")], priceSend),
      );
      expect(taken[0]).toBeInstanceOf(IdempotencyKeyTakenError);
      expect(
        await db().idempotencyKey.findUniqueOrThrow({ where: { accountId_key: { accountId: account.accountId, key: "race" } } }),
      ).toMatchObject({
        requestHash: "theirs",
        responseBody: "theirs",
      });

      const revoked = await whileAnotherTransactionHolds(`UPDATE "ApiKey" SET "active" = false WHERE "id" = $1`, [account.keyId], () =>
        getStores().messages.commitSends([send()], priceSend),
      );
      expect(revoked.map((outcome) => (outcome instanceof AppError ? outcome.code : "accepted"))).toEqual(["UNAUTHORIZED"]);

      expect(await db().message.count()).toBe(before.messages + 1);
      expect((await ledgerOf(account.accountId)).length).toBe(before.holds + 1);
      expect((await db().account.findUniqueOrThrow({ where: { id: account.accountId } })).balance).toBe(1_000n - ECONET);
    },
  );
});
