// Platform admin views: the accounts with their balances, a page at a time and by name, and sender
// ids waiting for approval. Accounts page by name, then id (keyset: no OFFSET, so a deep page costs
// what the first does, and a page link stays right while accounts are added).
import { z } from "zod";
import { ACCOUNT_NAME_MAX_LENGTH } from "@/lib/accounts/create-account";
import { db } from "@/lib/db/client";
import { containsText } from "@/lib/db/contains-text";
import { parseFilters, type ParsedFilters } from "./filters";

export const ACCOUNT_PAGE_SIZE = 50;

export type AccountSummary = { id: string; name: string; currency: string; balance: bigint; createdAt: Date; members: number };

/** The row a page ends on: the next page starts after it. */
type AccountCursor = { name: string; id: string };

export function encodeAccountCursor({ name, id }: AccountCursor): string {
  return Buffer.from(JSON.stringify([name, id])).toString("base64url");
}

/** The cursor a page link carries, or null when it is not one encodeAccountCursor made. */
export function decodeAccountCursor(text: string): AccountCursor | null {
  if (!/^[A-Za-z0-9_-]{1,1000}$/.test(text)) return null;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (!Array.isArray(decoded) || decoded.length !== 2) return null;
    const [name, id] = decoded as unknown[];
    if (typeof name !== "string" || name.length > ACCOUNT_NAME_MAX_LENGTH || !z.uuid().safeParse(id).success) return null;
    return { name, id: id as string };
  } catch {
    // not JSON: not a cursor
    return null;
  }
}

const accountFilterFields = {
  name: z.string().max(ACCOUNT_NAME_MAX_LENGTH, `at most ${ACCOUNT_NAME_MAX_LENGTH} characters`),
  cursor: z.string().refine((text) => decodeAccountCursor(text) !== null, "this page link is not valid; start from the first page"),
};

const accountFilterLabels = { name: "Name", cursor: "Page" };

export type AccountFilters = ParsedFilters<typeof accountFilterFields>["filters"];

export function parseAccountFilters(params: Record<string, string | undefined>): ParsedFilters<typeof accountFilterFields> {
  return parseFilters(accountFilterFields, accountFilterLabels, params);
}

/**
 * A page of the accounts whose name contains the name filter, in any case, ordered by name then id;
 * following nextCursor reaches the last one.
 */
export async function listAccounts(
  filters: AccountFilters,
  limit = ACCOUNT_PAGE_SIZE,
): Promise<{ rows: AccountSummary[]; nextCursor: string | null }> {
  const after = filters.cursor ? decodeAccountCursor(filters.cursor) : null;
  const accounts = await db().account.findMany({
    where: {
      AND: [
        filters.name ? { name: containsText(filters.name) } : {},
        after ? { OR: [{ name: { gt: after.name } }, { name: after.name, id: { gt: after.id } }] } : {},
      ],
    },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: limit + 1,
    select: { id: true, name: true, currency: true, balance: true, createdAt: true, _count: { select: { users: true } } },
  });
  const page = accounts.slice(0, limit);
  const last = page[page.length - 1];
  return {
    rows: page.map(({ _count, ...account }) => ({ ...account, members: _count.users })),
    nextCursor: accounts.length > limit ? encodeAccountCursor(last) : null,
  };
}

export async function listPendingSenders(): Promise<
  { id: string; name: string; useCase: string; accountId: string; accountName: string; createdAt: Date }[]
> {
  const senders = await db().senderId.findMany({
    where: { status: "pending" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, name: true, useCase: true, accountId: true, createdAt: true, account: { select: { name: true } } },
  });
  return senders.map(({ account, ...sender }) => ({ ...sender, accountName: account.name }));
}
