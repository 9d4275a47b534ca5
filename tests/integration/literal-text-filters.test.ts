// The dashboard's text filters match what the user typed as literal text, ignoring case, on both
// engines: % and _ (LIKE's wildcards) and \ (PostgreSQL's LIKE escape) are ordinary characters.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createAccount } from "@/lib/accounts/create-account";
import { acceptMessages } from "@/lib/messages/accept-messages";
import { searchMessages } from "@/lib/messages/search-messages";
import { listMessages, parseMessageFilters } from "@/lib/dashboard/list-messages";
import { listAuditEvents } from "@/lib/dashboard/list-audit-events";
import { createUser } from "@/lib/users/create-user";
import { createApiKey } from "@/lib/keys/create-api-key";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

const BODIES = ["100% off today", "100 off today", "1000 off today", "a_b", "axb", "A_B", "C:\\new", "C:new"];

let accountId: string;

beforeAll(async () => {
  accountId = (
    await createAccount({ name: "Literal Ltd", currency: "USD", openingBalance: 1_000_000n, senders: ["LITERAL"], actor: "test" })
  ).id;
  for (const [index, body] of BODIES.entries()) {
    await acceptMessages({
      accountId,
      from: "LITERAL",
      body,
      recipients: [`+26377100000${index}`],
      actor: "test",
      mode: "live",
      kind: "single",
    });
  }
});

describe("message text filter", () => {
  const bodiesMatching = async (text: string) => {
    const { filters, problems } = parseMessageFilters({ text }, "owner");
    expect(problems).toEqual([]);
    return (await listMessages(accountId, filters, "live")).rows.map((row) => row.bodyPreview).sort();
  };

  it("matches % and _ as themselves, case aside", async () => {
    expect(await bodiesMatching("100%")).toEqual(["100% off today"]);
    expect(await bodiesMatching("0% OFF")).toEqual(["100% off today"]);
    expect(await bodiesMatching("a_b")).toEqual(["A_B", "a_b"]);
    expect(await bodiesMatching("%%")).toEqual([]);
    expect(await bodiesMatching("__")).toEqual([]);
  });

  it("matches a backslash as itself", async () => {
    expect(await bodiesMatching("C:\\new")).toEqual(["C:\\new"]);
    expect(await bodiesMatching("\\n")).toEqual(["C:\\new"]);
  });

  it("keeps paging and the other filters", async () => {
    const search = { accountId, test: false, bodyContains: "_" };
    const first = await searchMessages(search, 1);
    expect(first.rows.map((row) => row.body)).toEqual(["A_B"]);
    const second = await searchMessages(search, 1, first.next);
    expect(second.rows.map((row) => row.body)).toEqual(["a_b"]);
    expect(second.next).toBeNull();
    expect((await searchMessages({ ...search, to: "+263771000003" }, 10)).rows.map((row) => row.body)).toEqual(["a_b"]);
    expect((await searchMessages({ ...search, test: true }, 10)).rows).toEqual([]);
  });

  it("matches an error text literally", async () => {
    const [percent, plain] = await Promise.all(
      ["100% off today", "100 off today"].map((body) => db().message.findFirstOrThrow({ where: { accountId, body } })),
    );
    await db().message.update({ where: { id: percent.id }, data: { lastError: "quota 100% used" } });
    await db().message.update({ where: { id: plain.id }, data: { operatorResponse: "quota 1000 used" } });
    const reasons = async (errorReason: string) => (await searchMessages({ accountId, errorReason }, 10)).rows.map((row) => row.id);
    expect(await reasons("100%")).toEqual([percent.id]);
    expect(await reasons("QUOTA 100")).toHaveLength(2);
  });
});

describe("audit actor filter", () => {
  it("matches emails and key names literally, case aside", async () => {
    const account = await createAccount({ name: "Literal Actors Ltd", currency: "USD", openingBalance: 0n, actor: "test" });
    const member = (email: string) =>
      createUser({ email, password: "member password 1", role: "developer", accountId: account.id, actor: "test" });
    const underscore = await member("a_b@literal.test");
    const lookalike = await member("axb@literal.test");
    const percentKey = await createApiKey({ accountId: account.id, name: "Promo 50% off", actor: `user:${underscore.id}` });
    await createApiKey({ accountId: account.id, name: "Promo 500 off", actor: `user:${lookalike.id}` });
    await createApiKey({ accountId: account.id, name: "made by a key", actor: `key:${percentKey.id}` });
    await createApiKey({ accountId: account.id, name: "Promo 5000 off", actor: "cli" });

    const actorsOf = async (actor: string) => (await listAuditEvents({ accountId: account.id }, { actor })).rows.map((row) => row.actor);
    expect(await actorsOf("A_B@")).toEqual(["a_b@literal.test"]);
    expect(await actorsOf("50% OFF")).toEqual([expect.stringMatching(/^key Promo 50% off \(/)]);
    expect(await actorsOf("%")).toEqual([expect.stringMatching(/^key Promo 50% off \(/)]);
    expect(await actorsOf("a_b")).toEqual(["a_b@literal.test"]);
  });
});
