// A bulk send larger than one chunk of rows (1024 messages) and of the answer's JSON: every message,
// event and hold is stored once, in request order, with the ledger's running balance unbroken across
// chunks, and the streamed answer is the spec's bulk result for exactly those messages.
import { describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { createAccount } from "@/lib/accounts/create-account";
import { acceptMessages } from "@/lib/messages/accept-messages";
import { applyLedgerEntries } from "@/lib/ledger/apply-ledger-entry";
import { getBalance } from "@/lib/ledger/get-balance";
import { defaultRates } from "@/lib/rates/rates";
import { serializeBulkResult } from "@/lib/api/sms/serialize-bulk-result";
import { bulkSmsResultSchema } from "@/lib/api/sms/sms-schemas";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

const RECIPIENTS = 2_500; // chunks of 1024, 1024 and 452 (inserted as 256 + 128 + 64 + 4)
const OPENING_BALANCE = 10_000_000n;

/** Distinct numbers in the forms clients write, over the three carriers, with their E.164 form. */
function recipients(): { written: string; e164: string; operator: "econet" | "netone" | "telecel" }[] {
  const prefixes = [
    ["77", "econet"],
    ["71", "netone"],
    ["73", "telecel"],
  ] as const;
  return Array.from({ length: RECIPIENTS }, (_, index) => {
    const [prefix, operator] = prefixes[index % 3];
    const national = `${prefix}${String(1_000_000 + index).slice(0, 7)}`;
    const written = index % 2 === 0 ? `+263${national}` : `0${national}`;
    return { written, e164: `+263${national}`, operator };
  });
}

describe("a bulk send over several chunks", () => {
  it("stores every message and hold once, in request order, and answers exactly those messages", async () => {
    const account = await createAccount({
      name: "Bulk",
      currency: "USD",
      openingBalance: OPENING_BALANCE,
      senders: ["BULK"],
      actor: "test",
    });
    const expected = recipients();
    const send = await acceptMessages({
      accountId: account.id,
      from: "BULK",
      body: "Chunked hello",
      recipients: expected.map((recipient) => recipient.written),
      actor: "test",
      mode: "live",
      kind: "bulk",
    });

    expect(send.messages.map((message) => [message.to, message.operator, message.charge])).toEqual(
      expected.map((recipient) => [recipient.e164, recipient.operator, defaultRates[recipient.operator]]),
    );
    const charge = expected.reduce((sum, recipient) => sum + defaultRates[recipient.operator], 0n);
    expect(send.charge).toBe(charge);

    const stored = await db().message.findMany({ where: { bulkSendId: send.bulkSendId! } });
    expect(stored).toHaveLength(RECIPIENTS);
    const byId = new Map(stored.map((message) => [message.id, message]));
    for (const message of send.messages) {
      expect(byId.get(message.id)).toMatchObject({
        accountId: account.id,
        to: message.to,
        operator: message.operator,
        charge: message.charge,
        currency: "USD",
        body: "Chunked hello",
        senderId: "BULK",
        status: "enqueued",
        segments: 1,
        test: false,
      });
    }
    // Their timelines' "accepted" is their receivedAt: no MessageEvent row per recipient.
    const events = await sql().get<{ count: number | string }>(
      `SELECT COUNT(*) AS "count" FROM "MessageEvent" e JOIN "Message" m ON m."id" = e."messageId" WHERE m."bulkSendId" = ?`,
      [send.bulkSendId],
    );
    expect(Number(events!.count)).toBe(0);

    const holds = await db().ledgerEntry.findMany({ where: { accountId: account.id, kind: "hold" }, orderBy: { id: "asc" } });
    expect(holds.map((hold) => [hold.messageId, hold.amount, hold.bulkSendId, hold.actor])).toEqual(
      send.messages.map((message) => [message.id, -message.charge, send.bulkSendId, "test"]),
    );
    let balance = OPENING_BALANCE;
    for (const hold of holds) {
      balance += hold.amount;
      expect(hold.balanceAfter).toBe(balance);
    }
    expect((await getBalance(account.id)).available).toBe(OPENING_BALANCE - charge);

    const result = bulkSmsResultSchema.parse(JSON.parse([...serializeBulkResult(send)].join("")));
    expect(result).toMatchObject({ total: RECIPIENTS, charge: Number(charge), currency: "USD" });
    expect(result.items).toEqual(
      send.messages.map((message) => ({
        id: message.id,
        to: message.to,
        status: "enqueued",
        operator: message.operator,
        charge: Number(message.charge),
        charge_currency: "USD",
      })),
    );
  });

  it("refuses a bulk send the balance does not cover and writes nothing", async () => {
    const account = await createAccount({ name: "Short", currency: "USD", openingBalance: 1_000n, senders: ["BULK"], actor: "test" });
    const attempt = acceptMessages({
      accountId: account.id,
      from: "BULK",
      body: "Too dear",
      recipients: recipients().map((recipient) => recipient.written),
      actor: "test",
      mode: "live",
      kind: "bulk",
    });
    await expect(attempt).rejects.toMatchObject({ code: "INSUFFICIENT_BALANCE" });
    expect(await db().message.count({ where: { accountId: account.id } })).toBe(0);
    expect(await db().ledgerEntry.count({ where: { accountId: account.id } })).toBe(1); // the opening credit
    expect((await getBalance(account.id)).available).toBe(1_000n);
  });
});

describe("applyLedgerEntries with entries that differ in more than amount and message", () => {
  it("stores each entry's own kind, reason and actor", async () => {
    const account = await createAccount({ name: "Mixed", currency: "USD", openingBalance: 5_000n, actor: "test" });
    const after = await sql().transaction((tx) =>
      applyLedgerEntries(
        tx,
        account.id,
        [
          { kind: "adjustment", amount: 700n, reason: "goodwill", actor: "user:a" },
          { kind: "credit", amount: 300n, reason: "top-up", actor: "user:b" },
        ],
        { requireCover: false },
      ),
    );
    expect(after).toBe(6_000n);
    const entries = await db().ledgerEntry.findMany({ where: { accountId: account.id }, orderBy: { id: "asc" } });
    expect(entries.slice(1).map((entry) => [entry.kind, entry.amount, entry.balanceAfter, entry.reason, entry.actor])).toEqual([
      ["adjustment", 700n, 5_700n, "goodwill", "user:a"],
      ["credit", 300n, 6_000n, "top-up", "user:b"],
    ]);
  });
});
