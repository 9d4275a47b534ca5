// The dashboard's inbox queries: a conversation interleaves what the account sent a number and what
// the number sent back, in time order; the platform view carries no bodies except unrouted messages.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { getConversation, listConversations, listPlatformInbound } from "@/lib/dashboard/inbox";
import { assignInboundNumber } from "@/lib/inbound/inbound-numbers";
import { storeMobileOriginated } from "@/lib/inbound/store-inbound";
import { mobileOriginatedFromDeliverSm } from "@/lib/smpp/mobile-originated";
import { useTestDatabase } from "../helpers/test-database";
import { createSendingAccount, send } from "../helpers/delivery";

useTestDatabase();

async function receive(from: string, to: string, text: string, at: Date) {
  const mo = mobileOriginatedFromDeliverSm({
    source_addr_ton: 1,
    source_addr_npi: 1,
    source_addr: from,
    dest_addr_ton: 1,
    dest_addr_npi: 1,
    destination_addr: to,
    esm_class: 0,
    data_coding: 0,
    short_message: Buffer.from(text, "latin1"),
  });
  await storeMobileOriginated({ operator: "econet", mo, receivedAt: at });
}

describe("inbox", () => {
  it("shows a conversation in time order, both ways, and lists conversations latest first", async () => {
    const accountId = await createSendingAccount(1_000_000n, "Inbox");
    await assignInboundNumber({ accountId, number: "24680", operator: null, actor: "test" });
    const [sentId] = await send(accountId, ["+263771000010"], "Your code is 1234");
    const sentAt = (await db().message.findUniqueOrThrow({ where: { id: sentId } })).createdAt;
    await receive("263771000010", "24680", "Thanks!", new Date(sentAt.getTime() + 1000));
    await receive("263771000010", "24680", "Before", new Date(sentAt.getTime() - 1000));
    await receive("263771000011", "24680", "Someone else", new Date(sentAt.getTime() + 5000));

    const conversation = await getConversation(accountId, "0771000010");
    expect(conversation?.entries.map((entry) => [entry.direction, entry.body])).toEqual([
      ["in", "Before"],
      ["out", "Your code is 1234"],
      ["in", "Thanks!"],
    ]);
    const conversations = await listConversations(accountId);
    expect(conversations.map((row) => [row.number, row.messages, row.lastBody])).toEqual([
      ["+263771000011", 1, "Someone else"],
      ["+263771000010", 2, "Thanks!"],
    ]);
  });

  it("gives the platform metadata without bodies, and admins the unrouted messages with theirs", async () => {
    await receive("263771000020", "263789000001", "lost message", new Date());
    const all = await listPlatformInbound({ unrouted: false });
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((row) => row.body === null)).toBe(true);
    const unrouted = await listPlatformInbound({ unrouted: true });
    expect(unrouted.map((row) => [row.accountName, row.body])).toContainEqual([null, "lost message"]);
    expect(unrouted.every((row) => row.accountName === null)).toBe(true);
  });
});
