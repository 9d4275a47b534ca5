// A group-committed batch of single sends, as one account sends them: every message and hold lands
// with its own balance after it, and a key revoked or a balance spent while the batch is being
// written refuses what it must and writes nothing for it. On PostgreSQL such a batch is written by
// one statement (lib/messages/write-sends-in-one-statement.ts); these hold on both engines.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { acceptMessages, type AcceptMessagesInput } from "@/lib/messages/accept-messages";
import { writeSendsInOneStatement, type OneStatementMessage } from "@/lib/messages/write-sends-in-one-statement";
import { AppError } from "@/lib/errors";
import { seedAccount, type SeededAccount } from "../helpers/api-test-server";
import { testDatabaseKind, useTestDatabase } from "../helpers/test-database";

useTestDatabase();

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
    "PostgreSQL's one statement writes nothing when the balance no longer covers the batch, or a key is revoked",
    async () => {
      const account = await seedAccount({ balance: 1_000n });
      await acceptMessages(singleSend(account, "+263773333333"));
      const before = { messages: await db().message.count(), holds: (await ledgerOf(account.accountId)).length };
      const message = (): OneStatementMessage => ({
        id: crypto.randomUUID(),
        to: "+263773333333",
        operator: "econet",
        charge: ECONET,
        body: "direct",
        senderId: "ACME",
        segments: 1,
        encoding: "gsm7",
        webhookUrl: null,
      });
      const batch = (messages: OneStatementMessage[]) => ({
        accountId: account.accountId,
        currency: "USD",
        at: toDbTime(new Date()),
        sends: [{ apiKeyId: account.keyId, userId: null, actor: `key:${account.keyId}`, messages }],
      });
      // Three more messages of the same price: 1,050 against the 650 left.
      const tooMany = [message(), message(), message()];
      expect(await writeSendsInOneStatement(sql(), batch(tooMany))).toBe(false);
      await db().apiKey.update({ where: { id: account.keyId }, data: { active: false } });
      expect(await writeSendsInOneStatement(sql(), batch(tooMany.slice(0, 1)))).toBe(false);
      expect(await db().message.count()).toBe(before.messages);
      expect((await ledgerOf(account.accountId)).length).toBe(before.holds);
      expect((await db().account.findUniqueOrThrow({ where: { id: account.accountId } })).balance).toBe(1_000n - ECONET);

      await db().apiKey.update({ where: { id: account.keyId }, data: { active: true } });
      expect(await writeSendsInOneStatement(sql(), batch(tooMany.slice(0, 1)))).toBe(true);
      expect((await db().account.findUniqueOrThrow({ where: { id: account.accountId } })).balance).toBe(1_000n - 2n * ECONET);
    },
  );
});
