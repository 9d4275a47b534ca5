// The batched writes of the delivery path, on a real database: one transaction records many carrier
// answers (some of whose leases passed to another dispatcher), then many receipts that repeat,
// overtake each other and complete or fail multi-part messages.
import { describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { readMigrations, splitStatements } from "@/lib/db/migrate";
import { toDbTime } from "@/lib/db/sql";
import { getMessageDetail } from "@/lib/dashboard/get-message-detail";
import { claimMessages, type ClaimedMessage } from "@/lib/delivery/claim-messages";
import { recordDispatchOutcomes, type DispatchOutcome } from "@/lib/delivery/record-dispatch-outcomes";
import { recordReceipts, type ReceiptEntry } from "@/lib/delivery/record-receipt";
import { DEFAULT_RETRY_POLICY } from "@/lib/delivery/retry-policy";
import type { ReceiptStat } from "@/lib/smpp/parse-receipt";
import { useTestDatabase } from "../helpers/test-database";
import { createSendingAccount, expectLedgerBalanced, send } from "../helpers/delivery";

useTestDatabase();

const OWNER = "dispatcher-a";

function accepted(message: ClaimedMessage, carrierMessageIds: string[], owner = OWNER): DispatchOutcome {
  return {
    message,
    owner,
    startedAt: new Date(),
    result: { kind: "accepted", carrierMessageIds, response: `ESME_ROK id:${carrierMessageIds.join(",")}` },
  };
}

function receipt(messageId: string, stat: ReceiptStat): ReceiptEntry {
  return { operator: "econet", receipt: { messageId, stat, err: stat === "DELIVRD" ? null : "001", doneAt: null } };
}

async function claimAll(count: number): Promise<ClaimedMessage[]> {
  const claimed = await claimMessages({ owner: OWNER, operator: "econet", test: false, limit: 100, leaseMs: 60_000 });
  expect(claimed).toHaveLength(count);
  return claimed;
}

/** The timeline the dashboard shows: the derived happy path and the stored events, in order. */
async function eventKinds(messageId: string): Promise<string[]> {
  return (await getMessageDetail(messageId, { platform: true })).events.map((event) => event.kind);
}

describe("batched delivery writes", () => {
  it("records a batch of acceptances only where this dispatcher still holds the lease, with parts, timeline and webhooks", async () => {
    const accountId = await createSendingAccount();
    const [plain, hooked, lost] = await send(accountId, ["+263771240001", "+263771240002", "+263771240003"], "Batched", {
      webhookUrl: "https://example.test/hook",
    });
    const claimed = await claimAll(3);
    const byId = new Map(claimed.map((message) => [message.id, message]));

    const result = await recordDispatchOutcomes(
      [accepted(byId.get(plain)!, ["a1", "a2"]), accepted(byId.get(hooked)!, ["b1"]), accepted(byId.get(lost)!, ["c1"], "dispatcher-b")],
      DEFAULT_RETRY_POLICY,
    );

    expect(result).toEqual({ recorded: 2, leaseLost: 1 });
    const messages = new Map((await db().message.findMany({ where: { accountId } })).map((message) => [message.id, message]));
    expect(messages.get(plain)).toMatchObject({
      status: "success",
      carrierMessageId: "a1",
      operatorResponse: "ESME_ROK id:a1,a2",
      leaseOwner: null,
    });
    expect(messages.get(plain)!.dispatchedAt).toBeInstanceOf(Date);
    expect(messages.get(hooked)).toMatchObject({ status: "success", carrierMessageId: "b1" });
    expect(messages.get(lost)).toMatchObject({ status: "processing", leaseOwner: OWNER, carrierMessageId: null });
    const parts = await db().messagePart.findMany({ where: { messageId: plain }, orderBy: { partNumber: "asc" } });
    expect(parts.map((part) => [part.partNumber, part.carrierMessageId, part.status])).toEqual([
      [1, "a1", "submitted"],
      [2, "a2", "submitted"],
    ]);
    expect(await db().messagePart.count({ where: { messageId: lost } })).toBe(0);
    expect(await eventKinds(plain)).toEqual(["accepted", "dispatched", "success"]);
    expect(await eventKinds(lost)).toEqual(["accepted"]);
    const webhooks = await db().webhookDelivery.findMany({ where: { accountId } });
    expect(webhooks.map((webhook) => [webhook.messageId, webhook.eventType]).sort()).toEqual(
      [
        [plain, "message.success"],
        [hooked, "message.success"],
      ].sort(),
    );
    expect(JSON.parse(webhooks.find((webhook) => webhook.messageId === hooked)!.payload)).toMatchObject({
      type: "message.success",
      data: { status: "success", operator_response: "ESME_ROK id:b1" },
    });
  });

  it("records a batch of acceptances without webhooks (PostgreSQL: one statement) only where the lease is still held", async () => {
    const accountId = await createSendingAccount();
    const [multi, single, lost] = await send(accountId, ["+263771250001", "+263771250002", "+263771250003"], "Plain");
    const claimed = await claimAll(3);
    const byId = new Map(claimed.map((message) => [message.id, message]));

    const result = await recordDispatchOutcomes(
      [
        accepted(byId.get(multi)!, ["m1", "m2", "m3"]),
        accepted(byId.get(single)!, ["s1"]),
        accepted(byId.get(lost)!, ["l1"], "dispatcher-b"),
      ],
      DEFAULT_RETRY_POLICY,
    );

    expect(result).toEqual({ recorded: 2, leaseLost: 1 });
    const messages = new Map((await db().message.findMany({ where: { accountId } })).map((message) => [message.id, message]));
    expect(messages.get(multi)).toMatchObject({
      status: "success",
      carrierMessageId: "m1",
      operatorResponse: "ESME_ROK id:m1,m2,m3",
      leaseOwner: null,
      leaseUntil: null,
      lastError: null,
    });
    expect(messages.get(multi)!.dispatchedAt).toBeInstanceOf(Date);
    expect(messages.get(multi)!.finishedAt).toBeInstanceOf(Date);
    expect(messages.get(single)).toMatchObject({ status: "success", carrierMessageId: "s1" });
    expect(messages.get(lost)).toMatchObject({ status: "processing", leaseOwner: OWNER, carrierMessageId: null });
    const parts = await db().messagePart.findMany({
      where: { messageId: { in: [multi, single, lost] } },
      orderBy: [{ messageId: "asc" }, { partNumber: "asc" }],
    });
    expect(parts.map((part) => [part.messageId, part.partNumber, part.operator, part.carrierMessageId, part.status])).toEqual(
      [
        [multi, 1, "econet", "m1", "submitted"],
        [multi, 2, "econet", "m2", "submitted"],
        [multi, 3, "econet", "m3", "submitted"],
        [single, 1, "econet", "s1", "submitted"],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[1]) - Number(b[1])),
    );
    expect(await eventKinds(single)).toEqual(["accepted", "dispatched", "success"]);
    expect(await db().webhookDelivery.count({ where: { accountId } })).toBe(0);
  });

  it("records receipts of one-part messages without webhooks (PostgreSQL: one statement): deliveries, intermediate states, repeats, unknown ids", async () => {
    const accountId = await createSendingAccount();
    const [first, second, third] = await send(accountId, ["+263771260001", "+263771260002", "+263771260003"], "One part");
    const claimed = new Map((await claimAll(3)).map((message) => [message.id, message]));
    await recordDispatchOutcomes(
      [accepted(claimed.get(first)!, ["g1"]), accepted(claimed.get(second)!, ["h1"]), accepted(claimed.get(third)!, ["i1"])],
      DEFAULT_RETRY_POLICY,
    );
    const stateOf = async (messageId: string) => {
      const message = await db().message.findUniqueOrThrow({ where: { id: messageId }, include: { parts: true } });
      return {
        status: message.status,
        operatorResponse: message.operatorResponse,
        delivered: message.deliveredAt !== null,
        parts: message.parts.map((part) => [part.status, part.receiptStat]),
      };
    };

    expect(
      await recordReceipts([receipt("g1", "DELIVRD"), receipt("h1", "ENROUTE"), receipt("g1", "DELIVRD"), receipt("eeee0000", "DELIVRD")]),
    ).toEqual(["matched", "matched", "matched", "unknown"]);
    expect(await stateOf(first)).toEqual({
      status: "success",
      operatorResponse: "DELIVRD",
      delivered: true,
      parts: [["delivered", "DELIVRD"]],
    });
    expect(await stateOf(second)).toEqual({
      status: "success",
      operatorResponse: "ESME_ROK id:h1",
      delivered: false,
      parts: [["submitted", "ENROUTE"]],
    });
    expect(await stateOf(third)).toEqual({
      status: "success",
      operatorResponse: "ESME_ROK id:i1",
      delivered: false,
      parts: [["submitted", null]],
    });

    expect(await recordReceipts([receipt("h1", "DELIVRD"), receipt("i1", "DELIVRD"), receipt("g1", "UNDELIV")])).toEqual([
      "matched",
      "matched",
      "matched",
    ]);
    expect(await stateOf(second)).toMatchObject({ delivered: true, parts: [["delivered", "DELIVRD"]] });
    expect(await stateOf(third)).toMatchObject({ delivered: true, parts: [["delivered", "DELIVRD"]] });
    // A final part stays final: UNDELIV after DELIVRD changes nothing and refunds nothing.
    expect(await stateOf(first)).toEqual({
      status: "success",
      operatorResponse: "DELIVRD",
      delivered: true,
      parts: [["delivered", "DELIVRD"]],
    });
    expect(await eventKinds(first)).toEqual(["accepted", "dispatched", "success", "delivered"]);
    await expectLedgerBalanced(accountId);
  });

  it("records a batch of receipts: repeats and intermediate states, parts completing a message, a failure refunded once, unknown ids", async () => {
    const accountId = await createSendingAccount();
    const [twoParts, failing, silent] = await send(accountId, ["+263771240011", "+263771240012", "+263771240013"], "Receipts");
    const claimed = new Map((await claimAll(3)).map((message) => [message.id, message]));
    await recordDispatchOutcomes(
      [
        accepted(claimed.get(twoParts)!, ["d1", "d2"]),
        accepted(claimed.get(failing)!, ["e1", "e2"]),
        accepted(claimed.get(silent)!, ["f1"]),
      ],
      DEFAULT_RETRY_POLICY,
    );

    const matches = await recordReceipts([
      receipt("d1", "ENROUTE"),
      receipt("d1", "DELIVRD"),
      receipt("e1", "DELIVRD"),
      receipt("ffff0000", "DELIVRD"),
      receipt("d2", "DELIVRD"),
      receipt("d2", "UNDELIV"), // after DELIVRD: a part's final state stays
      receipt("e2", "UNDELIV"),
      receipt("f1", "ACCEPTD"),
    ]);

    expect(matches).toEqual(["matched", "matched", "matched", "unknown", "matched", "matched", "matched", "matched"]);
    const messages = new Map((await db().message.findMany({ where: { accountId } })).map((message) => [message.id, message]));
    expect(messages.get(twoParts)).toMatchObject({ status: "success", operatorResponse: "DELIVRD" });
    expect(messages.get(twoParts)!.deliveredAt).toBeInstanceOf(Date);
    expect(messages.get(failing)).toMatchObject({ status: "failed", operatorResponse: "UNDELIV", deliveredAt: null });
    expect(messages.get(silent)).toMatchObject({ status: "success", deliveredAt: null });
    const parts = await db().messagePart.findMany({ where: { messageId: { in: [twoParts, failing, silent] } } });
    expect(Object.fromEntries(parts.map((part) => [part.carrierMessageId, [part.status, part.receiptStat]]))).toEqual({
      d1: ["delivered", "DELIVRD"],
      d2: ["delivered", "DELIVRD"],
      e1: ["delivered", "DELIVRD"],
      e2: ["failed", "UNDELIV"],
      f1: ["submitted", "ACCEPTD"],
    });
    expect(await eventKinds(twoParts)).toEqual(["accepted", "dispatched", "success", "delivered"]);
    expect(await eventKinds(failing)).toEqual(["accepted", "dispatched", "success", "failed", "refunded"]);
    const refunds = await db().ledgerEntry.findMany({ where: { messageId: failing, kind: "release" } });
    expect(refunds).toHaveLength(1);

    // The same receipts again, in one batch (a carrier resending after a lost acknowledgement): nothing changes.
    expect(await recordReceipts([receipt("e2", "UNDELIV"), receipt("d1", "DELIVRD"), receipt("f1", "DELIVRD")])).toEqual([
      "matched",
      "matched",
      "matched",
    ]);
    expect(await db().ledgerEntry.count({ where: { messageId: failing, kind: "release" } })).toBe(1);
    expect(await eventKinds(twoParts)).toEqual(["accepted", "dispatched", "success", "delivered"]);
    expect(await db().message.findUniqueOrThrow({ where: { id: silent } })).toMatchObject({ operatorResponse: "DELIVRD" });
    await expectLedgerBalanced(accountId);
  });

  it("an upgraded database: migration 0004 removes the stored happy path, so each event shows once, and keeps retries", async () => {
    const accountId = await createSendingAccount();
    const [id] = await send(accountId, ["+263771240021"], "Upgraded");
    await recordDispatchOutcomes([accepted((await claimAll(1))[0], ["g1"])], DEFAULT_RETRY_POLICY);
    // Rows as the releases before 0004 wrote them.
    const legacy = ["accepted", "dispatched", "success", "retry"].map(
      (kind) => `('${id}', '${kind}', 'legacy', '${toDbTime(new Date())}')`,
    );
    await sql().run(`INSERT INTO "MessageEvent" ("messageId", "kind", "detail", "createdAt") VALUES ${legacy.join(", ")}`);
    const migration = readMigrations(sql().dialect).find((candidate) => candidate.name === "0004_derive_happy_path_timeline")!;
    for (const statement of splitStatements(migration.sql)) await sql().run(statement);
    expect((await eventKinds(id)).sort()).toEqual(["accepted", "dispatched", "retry", "success"]);
  });
});
