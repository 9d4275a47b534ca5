// The admin's Accounts page on a real database: accounts a page at a time by name then id (keyset,
// so a page boundary between accounts of the same name loses none), and the name filter.
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/lib/accounts/create-account";
import {
  ACCOUNT_PAGE_SIZE,
  encodeAccountCursor,
  listAccounts,
  parseAccountFilters,
  type AccountSummary,
} from "@/lib/dashboard/list-accounts";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

/**
 * 120 accounts whose names sort alike in every collation either engine may use (PostgreSQL's
 * locale ones ignore case and spaces at first): the three "Twin Co" are the 100th to 102nd, so the
 * second page ends between two accounts of one name.
 */
const NAMES = [
  "100% Cotton",
  ...Array.from({ length: 94 }, (_, index) => `Acme ${String(index).padStart(3, "0")}`),
  "Greater HARARE Co",
  "Harar Coffee",
  "Harare Traders",
  "Mbare harare Stores",
  "Twin Co",
  "Twin Co",
  "Twin Co",
  ...Array.from({ length: 18 }, (_, index) => `Zvishavane ${String(index).padStart(2, "0")}`),
];

/** Every account, by name then id as the list orders them (ids are lowercase UUIDs). */
let expected: { id: string; name: string }[];

beforeAll(async () => {
  expect(NAMES).toHaveLength(120);
  const created = [];
  for (const name of NAMES) created.push(await createAccount({ name, currency: "USD", openingBalance: 0n, actor: "test" }));
  expected = created
    .map(({ id, name }) => ({ id, name }))
    .sort((a, b) => NAMES.indexOf(a.name) - NAMES.indexOf(b.name) || (a.id < b.id ? -1 : 1));
});

/** Every page of the list from the first, following nextCursor. */
async function walk(params: Record<string, string | undefined>): Promise<AccountSummary[][]> {
  const pages: AccountSummary[][] = [];
  let cursor: string | undefined;
  do {
    const { filters, problems } = parseAccountFilters({ ...params, cursor });
    expect(problems).toEqual([]);
    const page = await listAccounts(filters);
    pages.push(page.rows);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && pages.length < 10);
  return pages;
}

const namesOf = (rows: AccountSummary[]) => rows.map((row) => row.name);

describe("the admin's accounts list", () => {
  it("pages every account by name then id: full pages, none skipped or repeated, a tie on the name split across two pages", async () => {
    expect(ACCOUNT_PAGE_SIZE).toBe(50);
    const pages = await walk({});
    expect(pages.map((page) => page.length)).toEqual([50, 50, 20]);
    const rows = pages.flat();
    expect(new Set(rows.map((row) => row.id)).size).toBe(120);
    expect(rows.map(({ id, name }) => ({ id, name }))).toEqual(expected);
    expect(namesOf(pages[1]).at(-1)).toBe("Twin Co");
    expect(namesOf(pages[2]).slice(0, 2)).toEqual(["Twin Co", "Twin Co"]);
    expect(rows[0]).toMatchObject({ currency: "USD", balance: 0n, members: 0 });
  });

  it("filters by any part of the name in any case, and pages the matches alone", async () => {
    const harare = await walk({ name: "harare" });
    expect(harare.map(namesOf)).toEqual([["Greater HARARE Co", "Harare Traders", "Mbare harare Stores"]]);
    const acme = await walk({ name: "ACME" });
    expect(acme.map((page) => page.length)).toEqual([50, 44]);
    expect(acme.flat().map(({ id, name }) => ({ id, name }))).toEqual(expected.filter((account) => account.name.startsWith("Acme ")));
    expect((await walk({ name: "0% cot" })).map(namesOf)).toEqual([["100% Cotton"]]);
    expect((await walk({ name: "Nowhere Ltd" })).map(namesOf)).toEqual([[]]);
  });

  it("names a page link it did not give and a name too long, and lists from the first page without them", async () => {
    const forged = [
      "not a cursor",
      Buffer.from("garbage").toString("base64url"),
      Buffer.from(JSON.stringify(["Acme 010", "not-an-id"])).toString("base64url"),
      Buffer.from(JSON.stringify([7, "0195e6a4-7b1c-7000-8000-000000000000"])).toString("base64url"),
    ];
    for (const cursor of forged) {
      const { filters, problems } = parseAccountFilters({ cursor, name: "x".repeat(121) });
      expect(problems).toEqual([
        { field: "name", description: "Name: at most 120 characters" },
        { field: "cursor", description: "Page: this page link is not valid; start from the first page" },
      ]);
      expect(filters).toEqual({});
      expect(namesOf((await listAccounts(filters)).rows)[0]).toBe("100% Cotton");
    }
    // A cursor made for a name and id that no longer exist still continues after them, in order.
    const { filters } = parseAccountFilters({ cursor: encodeAccountCursor({ name: "Harar", id: "00000000-0000-4000-8000-000000000000" }) });
    expect(namesOf((await listAccounts(filters)).rows).slice(0, 2)).toEqual(["Harar Coffee", "Harare Traders"]);
  });
});
