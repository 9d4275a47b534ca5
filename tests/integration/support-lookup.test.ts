// Support's lookup across accounts: by message id or prefix, number, sender id and date range, newest
// first, paged to the end without gaps or repeats, each row with its account's owners to contact and
// never a message body.
import { beforeAll, describe, expect, it } from "vitest";
import { db, sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { createAccount } from "@/lib/accounts/create-account";
import { createUser } from "@/lib/users/create-user";
import { acceptMessages } from "@/lib/messages/accept-messages";
import { LOOKUP_PAGE_SIZE, lookupMessages, parseLookupFilters, type LookupRow } from "@/lib/dashboard/lookup-messages";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

let shop: string;
let clinic: string;
/** Message ids per (account, sender, day), as stored. */
const sent: { id: string; accountId: string; senderId: string; day: string }[] = [];

async function sendOn(accountId: string, senderId: string, day: string, count: number, kind: "single" | "bulk" = "bulk") {
  const recipients = Array.from({ length: count }, (_, index) => `+26377${String(sent.length + index).padStart(7, "0")}`);
  const accepted = await acceptMessages({
    accountId,
    from: senderId,
    body: `Private ${senderId}`,
    recipients,
    actor: "test",
    mode: "live",
    kind,
  });
  const ids = accepted.messages.map((message) => message.id);
  // Spread over the day, a few sharing one time, so pages break ties on id.
  for (const [index, id] of ids.entries()) {
    const at = new Date(Date.parse(`${day}T08:00:00Z`) + Math.floor(index / 3) * 60_000);
    await sql().run(`UPDATE "Message" SET "createdAt" = ? WHERE "id" = ?`, [toDbTime(at), id]);
    sent.push({ id, accountId, senderId, day });
  }
}

async function everyPage(params: Record<string, string>): Promise<LookupRow[]> {
  const rows: LookupRow[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const { filters, problems, ready } = parseLookupFilters({ ...params, ...(cursor ? { cursor } : {}) });
    expect(problems).toEqual([]);
    expect(ready).toBe(true);
    const page = await lookupMessages(filters);
    expect(page.rows.length).toBeLessThanOrEqual(LOOKUP_PAGE_SIZE);
    rows.push(...page.rows);
    cursor = page.nextCursor ?? undefined;
    pages += 1;
  } while (cursor);
  expect(pages).toBe(Math.max(1, Math.ceil(rows.length / LOOKUP_PAGE_SIZE)));
  return rows;
}

beforeAll(async () => {
  shop = (await createAccount({ name: "Shop", currency: "USD", openingBalance: 10_000_000n, senders: ["SHOP", "DEALS"], actor: "test" }))
    .id;
  clinic = (await createAccount({ name: "Clinic", currency: "USD", openingBalance: 10_000_000n, senders: ["SHOP"], actor: "test" })).id;
  await createUser({
    email: "tariro@shop.test",
    name: "Tariro Moyo",
    password: "correct horse battery",
    role: "owner",
    accountId: shop,
    actor: "test",
  });
  await createUser({ email: "second@shop.test", password: "correct horse battery", role: "owner", accountId: shop, actor: "test" });
  await createUser({ email: "dev@shop.test", password: "correct horse battery", role: "developer", accountId: shop, actor: "test" });
  await createUser({
    email: "nurse@clinic.test",
    name: "Nurse",
    password: "correct horse battery",
    role: "owner",
    accountId: clinic,
    actor: "test",
  });
  await sendOn(shop, "SHOP", "2026-03-01", 70);
  await sendOn(shop, "SHOP", "2026-03-02", 40);
  await sendOn(shop, "DEALS", "2026-03-02", 5);
  await sendOn(clinic, "SHOP", "2026-03-02", 3);
});

const expected = (select: (row: (typeof sent)[number]) => boolean) => sent.filter(select).map((row) => row.id);

describe("support lookup", () => {
  it("finds a sender id across accounts, newest first, every page without gaps or repeats", async () => {
    const rows = await everyPage({ sender: "SHOP" });
    expect(rows.map((row) => row.id).sort()).toEqual(expected((row) => row.senderId === "SHOP").sort());
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    for (let index = 1; index < rows.length; index++) {
      const [before, after] = [rows[index - 1], rows[index]];
      expect(before.createdAt > after.createdAt || (before.createdAt.getTime() === after.createdAt.getTime() && before.id > after.id)).toBe(
        true,
      );
    }
    expect(new Set(rows.map((row) => row.accountName))).toEqual(new Set(["Shop", "Clinic"]));
  });

  it("compares sender ids as accounts hold them, case aside, and finds nothing under a name no account holds", async () => {
    const upper = await everyPage({ sender: "SHOP", since: "2026-03-02" });
    const lower = await everyPage({ sender: " shop ", since: "2026-03-02" });
    expect(lower.map((row) => row.id)).toEqual(upper.map((row) => row.id));
    expect(lower.length).toBe(expected((row) => row.senderId === "SHOP" && row.day === "2026-03-02").length);
    expect(lower.every((row) => row.senderId === "SHOP")).toBe(true);
    expect(await everyPage({ sender: "NOBODY" })).toEqual([]);
    const clinicTarget = sent.find((row) => row.accountId === clinic)!;
    expect((await everyPage({ q: clinicTarget.id, sender: "shop" })).map((row) => row.id)).toEqual([clinicTarget.id]);
  });

  it("finds the longest sender id an account can have, a + and 15 digits", async () => {
    const sender = "+263771234567890";
    const numbers = (
      await createAccount({ name: "Numbers", currency: "USD", openingBalance: 10_000_000n, senders: [sender], actor: "test" })
    ).id;
    await sendOn(numbers, sender, "2026-03-03", 2);
    const rows = await everyPage({ sender });
    expect(rows.map((row) => row.id).sort()).toEqual(expected((row) => row.senderId === sender).sort());
    expect(rows).toHaveLength(2);
  });

  it("narrows a sender id to a date range (UTC days, both ends included)", async () => {
    const day2 = await everyPage({ sender: "SHOP", since: "2026-03-02", until: "2026-03-02" });
    expect(day2.map((row) => row.id).sort()).toEqual(expected((row) => row.senderId === "SHOP" && row.day === "2026-03-02").sort());
    const day1 = await everyPage({ sender: "SHOP", until: "2026-03-01" });
    expect(day1).toHaveLength(70);
    expect(await everyPage({ sender: "SHOP", since: "2026-03-03" })).toEqual([]);
    const deals = await everyPage({ sender: "DEALS", since: "2026-03-01" });
    expect(deals.map((row) => row.id).sort()).toEqual(expected((row) => row.senderId === "DEALS").sort());
  });

  it("finds by id prefix and by number, combined with the other filters", async () => {
    const target = sent.find((row) => row.accountId === clinic)!;
    const byPrefix = await everyPage({ q: target.id.slice(0, 8), sender: "SHOP" });
    expect(byPrefix.map((row) => row.id)).toContain(target.id);
    expect(byPrefix.every((row) => row.id.startsWith(target.id.slice(0, 8)) || row.id.endsWith(target.id.slice(0, 8)))).toBe(true);
    const to = (await db().message.findUniqueOrThrow({ where: { id: target.id } })).to;
    expect((await everyPage({ q: `0${to.slice(4)}` })).map((row) => row.id)).toEqual([target.id]);
    expect(await everyPage({ q: `0${to.slice(4)}`, sender: "DEALS" })).toEqual([]);
  });

  it("names each account's owners (name and email), not its developers, and never a body", async () => {
    const [clinicRow] = await everyPage({ sender: "SHOP", since: "2026-03-02" }).then((rows) =>
      rows.filter((row) => row.accountId === clinic),
    );
    expect(clinicRow.owners).toEqual([{ name: "Nurse", email: "nurse@clinic.test" }]);
    const [shopRow] = await everyPage({ sender: "DEALS" });
    expect(shopRow.owners).toEqual([
      { name: "Tariro Moyo", email: "tariro@shop.test" },
      { name: null, email: "second@shop.test" },
    ]);
    expect(Object.keys(shopRow)).not.toContain("body");
    expect(JSON.stringify(shopRow)).not.toContain("Private");
  });

  it("names refused values and searches nothing without an id, a number or a sender id", async () => {
    expect(parseLookupFilters({ q: "zz" }).problems.map((problem) => problem.field)).toEqual(["q"]);
    expect(parseLookupFilters({ q: "not an id!" }).problems.map((problem) => problem.field)).toEqual(["q"]);
    expect(parseLookupFilters({ sender: "S".repeat(17) }).problems.map((problem) => problem.field)).toEqual(["sender"]);
    expect(parseLookupFilters({ sender: "SHOP", since: "2026-13-01" }).problems.map((problem) => problem.field)).toEqual(["since"]);
    expect(parseLookupFilters({ sender: "SHOP", cursor: "garbage" }).problems.map((problem) => problem.field)).toEqual(["cursor"]);
    const onlyDates = parseLookupFilters({ since: "2026-03-01" });
    expect(onlyDates.ready).toBe(false);
    expect(onlyDates.problems.map((problem) => problem.field)).toEqual(["q"]);
    expect(parseLookupFilters({}).ready).toBe(false);
    expect(await lookupMessages({ since: "2026-03-01" })).toEqual({ rows: [], nextCursor: null });
  });
});
