// Support lookup: find messages across every account by message id or id prefix, recipient number,
// sender id (compared as sender ids are, case aside) and a date range, newest first, a page at a
// time (a next-page link, never a silent cap), each with its account and the account owners'
// contact, so support can follow up. Read-only and without bodies (customer content stays with the
// customer).
import { z } from "zod";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/sqlite";
import { parseMsisdn } from "@/lib/messages/msisdn";
import { SENDER_NAME_MAX_LENGTH, senderNameKey } from "@/lib/senders/sender-name";
import type { FieldError } from "@/lib/errors";
import { dayParam, dayRange, parseFilters, type ParsedFilters } from "./filters";
import { decodeCursor, encodeCursor, messageIdParam, messageIdWhere } from "./list-messages";
import { olderThan } from "@/lib/db/older-than";

export const LOOKUP_PAGE_SIZE = 50;

/** A phone number in any written form, else a message id or id prefix; null when the text is neither. */
function idOrPhoneWhere(text: string) {
  const phone = parseMsisdn(text);
  if (phone.ok) return { to: phone.recipient.to };
  const id = messageIdParam.safeParse(text);
  return id.success ? messageIdWhere(id.data) : null;
}

const lookupFields = {
  q: z
    .string()
    .trim()
    .min(3, "type a message id, at least 3 of its characters, or a phone number")
    .max(64, "at most 64 characters")
    .refine((text) => idOrPhoneWhere(text) !== null, "not a message id or a phone number"),
  sender: z.string().trim().min(1).max(SENDER_NAME_MAX_LENGTH, `at most ${SENDER_NAME_MAX_LENGTH} characters`),
  since: dayParam,
  until: dayParam,
  cursor: z
    .string()
    .max(200)
    .refine((text) => decodeCursor(text) !== null, "this page link is not valid; start from the first page"),
};

const lookupLabels = { q: "Message id or phone number", sender: "Sender id", since: "From", until: "To", cursor: "Page" };

export type LookupFilters = ParsedFilters<typeof lookupFields>["filters"];

/** The lookup's filters from a URL; a search needs a message id, a number or a sender id (the dates narrow it). */
export function parseLookupFilters(params: Record<string, string | undefined>): ParsedFilters<typeof lookupFields> & { ready: boolean } {
  const parsed = parseFilters(lookupFields, lookupLabels, params, { dayRange: ["since", "until"] });
  const ready = parsed.problems.length === 0 && (parsed.filters.q !== undefined || parsed.filters.sender !== undefined);
  const onlyDates = parsed.problems.length === 0 && !ready && (parsed.filters.since || parsed.filters.until);
  const missing: FieldError[] = onlyDates
    ? [{ field: "q", description: "Search: add a message id, a phone number or a sender id to the dates" }]
    : [];
  return { ...parsed, problems: [...parsed.problems, ...missing], ready };
}

export type OwnerContact = { name: string | null; email: string };

export type LookupRow = {
  id: string;
  accountId: string;
  accountName: string;
  owners: OwnerContact[];
  to: string;
  senderId: string;
  operator: string;
  status: string;
  test: boolean;
  createdAt: Date;
  deliveredAt: Date | null;
};

export type LookupPage = { rows: LookupRow[]; nextCursor: string | null };

const lookupSelect = {
  id: true,
  accountId: true,
  to: true,
  senderId: true,
  operator: true,
  status: true,
  test: true,
  createdAt: true,
  deliveredAt: true,
  account: { select: { name: true } },
} as const;

/** Up to a page and one more of the messages matching, newest first. */
function readLookupRows(where: Prisma.MessageWhereInput) {
  return db().message.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: LOOKUP_PAGE_SIZE + 1,
    select: lookupSelect,
  });
}

type LookupMessage = Awaited<ReturnType<typeof readLookupRows>>[number];

/**
 * Messages sent under a sender id: the accounts holding that name (compared as sender ids are, case
 * aside) and, for each, its messages under the name it holds. With a message id or a number, one
 * read that those narrow; otherwise one read per account along its (accountId, createdAt, id)
 * index, each stopping after a page, merged in the list's order.
 */
async function readSenderRows(sender: string, where: Prisma.MessageWhereInput, narrowed: boolean): Promise<LookupMessage[]> {
  const holders = await db().senderId.findMany({ where: { nameKey: senderNameKey(sender) }, select: { accountId: true, name: true } });
  const scopes = holders.map((holder) => ({ accountId: holder.accountId, senderId: holder.name }));
  if (scopes.length === 0) return [];
  if (narrowed) return readLookupRows({ AND: [where, { OR: scopes }] });
  const perAccount = await Promise.all(scopes.map((scope) => readLookupRows({ AND: [where, scope] })));
  return perAccount
    .flat()
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, LOOKUP_PAGE_SIZE + 1);
}

/** One page of matches; without a message id, a number or a sender id it finds nothing (never the whole platform). */
export async function lookupMessages(filters: LookupFilters): Promise<LookupPage> {
  if (filters.q === undefined && filters.sender === undefined) return { rows: [], nextCursor: null };
  const cursor = decodeCursor(filters.cursor);
  const created = dayRange(filters.since, filters.until);
  const where: Prisma.MessageWhereInput = {
    AND: [
      filters.q ? (idOrPhoneWhere(filters.q) ?? {}) : {},
      created ? { createdAt: created } : {},
      cursor ? olderThan("createdAt", { at: cursor.createdAt, id: cursor.id }) : {},
    ],
  };
  const rows =
    filters.sender === undefined ? await readLookupRows(where) : await readSenderRows(filters.sender, where, filters.q !== undefined);
  const page = rows.slice(0, LOOKUP_PAGE_SIZE);
  const owners = await db().user.findMany({
    where: { role: "owner", accountId: { in: [...new Set(page.map((row) => row.accountId))] }, disabledAt: null },
    select: { accountId: true, name: true, email: true },
    orderBy: [{ createdAt: "asc" }, { email: "asc" }],
  });
  const ownersOf = (accountId: string) =>
    owners.filter((owner) => owner.accountId === accountId).map((owner) => ({ name: owner.name, email: owner.email }));
  const last = page[page.length - 1];
  return {
    rows: page.map(({ account, ...row }) => ({ ...row, accountName: account.name, owners: ownersOf(row.accountId) })),
    nextCursor: rows.length > LOOKUP_PAGE_SIZE ? encodeCursor(last.createdAt, last.id) : null,
  };
}
