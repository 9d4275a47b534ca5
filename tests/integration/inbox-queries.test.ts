// The dashboard's inbox queries: a conversation interleaves what the account sent a number and what
// the number sent back, in time order; the platform view carries no bodies except unrouted messages.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { getConversation, hasConversation, listConversations, listPlatformInbound, parseInboxFilters } from "@/lib/dashboard/inbox";
import { assignInboundNumber, listInboundNumbers } from "@/lib/inbound/inbound-numbers";
import { storeMobileOriginated, storeOverdueParts } from "@/lib/inbound/store-inbound";
import { mobileOriginatedFromDeliverSm } from "@/lib/smpp/mobile-originated";
import { useTestDatabase } from "../helpers/test-database";
import { createSendingAccount, send } from "../helpers/delivery";

useTestDatabase();

async function receive(from: string, to: string, text: string, at: Date, mode: "test" | "live" = "live", udh?: number[]) {
  const mo = mobileOriginatedFromDeliverSm({
    source_addr_ton: 1,
    source_addr_npi: 1,
    source_addr: from,
    dest_addr_ton: 1,
    dest_addr_npi: 1,
    destination_addr: to,
    esm_class: udh ? 0x40 : 0,
    data_coding: 0,
    short_message: Buffer.concat([Buffer.from(udh ?? []), Buffer.from(text, "latin1")]),
  });
  return storeMobileOriginated({ operator: "econet", mo, receivedAt: at, mode });
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
    const { rows: conversations } = await listConversations(accountId);
    expect(conversations.map((row) => [row.number, row.messages, row.lastBody])).toEqual([
      ["+263771000011", 1, "Someone else"],
      ["+263771000010", 2, "Thanks!"],
    ]);
  });

  it("opens every listed conversation, a sender that is a name rather than a number included", async () => {
    const accountId = await createSendingAccount(1_000_000n, "Named senders");
    await assignInboundNumber({ accountId, number: "24682", operator: null, actor: "test" });
    await receive("Acme Couriers", "24682", "Your parcel is ready", new Date());
    await receive("263771000012", "24682", "Hello", new Date());
    const { rows: conversations } = await listConversations(accountId);
    expect(conversations.map((row) => row.number).sort()).toEqual(["+263771000012", "Acme Couriers"]);
    for (const row of conversations) {
      const conversation = await getConversation(accountId, row.number);
      expect(conversation?.number).toBe(row.number);
      expect(conversation?.entries.map((entry) => entry.body)).toEqual([row.lastBody]);
    }
    expect(await getConversation(accountId, "  ")).toBeNull();
  });

  it("pages an account's conversations latest first to the oldest, ties ordered by number, each with its last message", async () => {
    const accountId = await createSendingAccount(1_000_000n, "Many conversations");
    await assignInboundNumber({ accountId, number: "24685", operator: null, actor: "test" });
    const at = Date.parse("2030-06-01T00:00:00Z");
    // 120 numbers, seven to a last instant (ties across numbers); every third has an earlier message
    // too, and every fifth two at its last instant (the later id is its last message).
    const expected: { number: string; messages: number; lastAt: number; lastBody: string }[] = [];
    for (let index = 0; index < 120; index++) {
      const number = `+26377130${String(index).padStart(4, "0")}`;
      const lastAt = at + Math.floor(index / 7) * 1000;
      let messages = 0;
      if (index % 3 === 0) {
        await receive(number, "24685", `earlier ${index}`, new Date(lastAt - 500_000));
        messages++;
      }
      const stored = [await receive(number, "24685", `last ${index}`, new Date(lastAt))];
      if (index % 5 === 0) stored.push(await receive(number, "24685", `also last ${index}`, new Date(lastAt)));
      messages += stored.length;
      const ids = stored.map((result) => (result.kind === "stored" ? result.message.id : ""));
      const lastBody = index % 5 === 0 && ids[1] > ids[0] ? `also last ${index}` : `last ${index}`;
      expected.push({ number, messages, lastAt, lastBody });
    }
    // Another account's messages from the same numbers are not this account's conversations.
    const other = await createSendingAccount(1_000_000n, "Other inbox");
    await assignInboundNumber({ accountId: other, number: "24686", operator: null, actor: "test" });
    await receive(expected[0].number, "24686", "elsewhere", new Date(at + 999_000));
    expected.sort((a, b) => b.lastAt - a.lastAt || (a.number < b.number ? 1 : -1));

    const pages: Awaited<ReturnType<typeof listConversations>>["rows"][] = [];
    let cursor: string | undefined;
    do {
      const page = await listConversations(accountId, { cursor });
      pages.push(page.rows);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages.map((rows) => rows.length)).toEqual([50, 50, 20]);
    expect(
      pages.flat().map((row) => ({ number: row.number, messages: row.messages, lastAt: row.lastAt.getTime(), lastBody: row.lastBody })),
    ).toEqual(expected);
    expect(new Set(pages.flat().map((row) => row.number)).size).toBe(120);
    // A page boundary inside a tie (page size 3, seven numbers to an instant) loses and repeats nothing.
    const small: string[] = [];
    cursor = undefined;
    do {
      const page = await listConversations(accountId, { cursor, limit: 3 });
      small.push(...page.rows.map((row) => row.number));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(small).toEqual(expected.map((row) => row.number));

    // A page link the Inbox did not give is named, never read as a page.
    expect(parseInboxFilters({ cursor: "not a cursor" })).toEqual({
      filters: {},
      problems: [{ field: "cursor", description: "Page: this page link is not valid; start from the newest" }],
    });
  });

  it("finds a conversation by a number in any written form, or by a sender's name as stored", async () => {
    const accountId = await createSendingAccount(1_000_000n, "Find");
    await assignInboundNumber({ accountId, number: "24687", operator: null, actor: "test" });
    await receive("263771400001", "24687", "Hi", new Date());
    await receive("Acme", "24687", "Your parcel", new Date());
    for (const typed of ["0771400001", "0771 400 001", "263771400001", "+263771400001", " +263-77-140-0001 "]) {
      expect(parseInboxFilters({ find: typed })).toEqual({ filters: { find: "+263771400001" }, problems: [] });
    }
    expect(parseInboxFilters({ find: "Acme" }).filters.find).toBe("Acme");
    expect(parseInboxFilters({ find: "24687" }).filters.find).toBe("24687");
    expect(await hasConversation(accountId, "+263771400001")).toBe(true);
    expect(await hasConversation(accountId, "Acme")).toBe(true);
    expect(await hasConversation(accountId, "+263771400002")).toBe(false);
    expect(await hasConversation(accountId, "acme")).toBe(false);
    for (const typed of ["12", "0791234567", "+263 77 !!"]) {
      expect(parseInboxFilters({ find: typed }).problems).toEqual([
        { field: "find", description: `Number or sender: "${typed}" is not a phone number, short code or sender name` },
      ]);
    }
    // A page boundary after a sender whose name holds the cursor's separator.
    await receive("Acme|Two", "24687", "Also a parcel", new Date(Date.now() + 60_000));
    const first = await listConversations(accountId, { limit: 1 });
    expect(first.rows.map((row) => row.number)).toEqual(["Acme|Two"]);
    const rest = await listConversations(accountId, { cursor: first.nextCursor!, limit: 5 });
    expect(rest.rows.map((row) => row.number).sort()).toEqual(["+263771400001", "Acme"]);
    expect(parseInboxFilters({ find: "A".repeat(21) }).problems).toEqual([
      { field: "find", description: "Number or sender: at most 20 characters" },
    ]);
  });

  it("lists an account's numbers, an all-carrier one naming the carriers another account's own assignment takes", async () => {
    const [all, econet] = [await createSendingAccount(1_000_000n, "All"), await createSendingAccount(1_000_000n, "Econet")];
    await assignInboundNumber({ accountId: all, number: "24683", operator: null, actor: "test" });
    await assignInboundNumber({ accountId: all, number: "24684", operator: null, actor: "test" });
    await assignInboundNumber({ accountId: econet, number: "24683", operator: "econet", actor: "test" });
    expect((await listInboundNumbers(all)).map((row) => [row.number, row.operator, row.carriersElsewhere])).toEqual([
      ["24683", null, ["econet"]],
      ["24684", null, []],
    ]);
    expect((await listInboundNumbers(econet)).map((row) => [row.number, row.operator, row.carriersElsewhere])).toEqual([
      ["24683", "econet", []],
    ]);
  });

  it("gives the platform metadata without bodies, and admins the unrouted messages with theirs", async () => {
    await receive("263771000020", "263789000001", "lost message", new Date());
    const { rows: all } = await listPlatformInbound({ unrouted: false });
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((row) => row.body === null)).toBe(true);
    const { rows: unrouted } = await listPlatformInbound({ unrouted: true });
    expect(unrouted.map((row) => [row.accountName, row.body])).toContainEqual([null, "lost message"]);
    expect(unrouted.every((row) => row.accountName === null)).toBe(true);
  });

  it("pages the platform's inbound messages newest first to the last one, none skipped or repeated, unrouted ones apart", async () => {
    const accountId = await createSendingAccount(1_000_000n, "Pages");
    await assignInboundNumber({ accountId, number: "24690", operator: null, actor: "test" });
    const at = Date.parse("2031-01-01T00:00:00Z");
    // Two at the same instant: the id orders them, and a page boundary between them loses neither.
    for (const [offset, to] of [
      [0, "24690"],
      [1000, "263789000091"],
      [1000, "24690"],
      [2000, "263789000092"],
      [3000, "24690"],
    ] as const) {
      await receive("263771000090", to, `at ${offset}`, new Date(at + offset));
    }
    const walk = async (unrouted: boolean) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listPlatformInbound({ unrouted, cursor, limit: 2 });
        expect(page.rows.length).toBeLessThanOrEqual(2);
        seen.push(...page.rows.filter((row) => row.receivedAt.getTime() >= at).map((row) => row.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return seen;
    };
    const ordered = (where: object) =>
      db()
        .inboundMessage.findMany({
          where: { receivedAt: { gte: new Date(at) }, ...where },
          orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
        })
        .then((rows) => rows.map((row) => row.id));
    expect(await walk(false)).toEqual(await ordered({}));
    expect(await walk(false)).toHaveLength(5);
    expect(await walk(true)).toEqual(await ordered({ accountId: null }));
    expect(await walk(true)).toHaveLength(2);
    // A cursor the page did not give starts again from the first page.
    expect((await listPlatformInbound({ unrouted: false, cursor: "not a cursor", limit: 2 })).rows).toEqual(
      (await listPlatformInbound({ unrouted: false, limit: 2 })).rows,
    );
  });

  it("keeps each message's mode: a test bind's messages, whole or in parts, are test and show beside live ones", async () => {
    const accountId = await createSendingAccount(1_000_000n, "Modes");
    await assignInboundNumber({ accountId, number: "24681", operator: null, actor: "test" });
    const at = Date.now();
    await receive("263771000030", "24681", "live one", new Date(at));
    await receive("263771000030", "24681", "sandbox one", new Date(at + 1000), "test");
    // The same two parts over a live bind and over a test bind: two messages, one of each mode.
    for (const mode of ["live", "test"] as const) {
      await receive("263771000031", "24681", "part one ", new Date(at + 2000), mode, [5, 0, 3, 7, 2, 1]);
      const second = await receive("263771000031", "24681", "part two", new Date(at + 3000), mode, [5, 0, 3, 7, 2, 2]);
      expect(second).toMatchObject({ kind: "stored", message: { body: "part one part two", mode } });
    }
    // A part whose partner never comes is stored incomplete, still test.
    await receive("263771000032", "24681", "lonely ", new Date(at), "test", [5, 0, 3, 9, 2, 1]);
    const overdue = await storeOverdueParts(60_000, new Date(at + 61_000));
    expect(overdue.filter((message) => message.from === "+263771000032").map((message) => [message.complete, message.mode])).toEqual([
      [false, "test"],
    ]);

    const conversation = await getConversation(accountId, "+263771000030");
    expect(conversation?.entries.map((entry) => entry.direction === "in" && [entry.body, entry.mode])).toEqual([
      ["live one", "live"],
      ["sandbox one", "test"],
    ]);
    const parts = await db().inboundMessage.findMany({ where: { accountId, from: "+263771000031" }, orderBy: { mode: "asc" } });
    expect(parts.map((message) => [message.body, message.mode])).toEqual([
      ["part one part two", "live"],
      ["part one part two", "test"],
    ]);
    const { rows: conversations } = await listConversations(accountId);
    expect(conversations.find((row) => row.number === "+263771000030")).toMatchObject({ messages: 2, lastMode: "test" });
    const { rows: platform } = await listPlatformInbound({ unrouted: false });
    expect(platform.filter((row) => row.from === "+263771000030").map((row) => row.mode)).toEqual(["test", "live"]);
  });
});
