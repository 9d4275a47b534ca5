// Searching an account's messages: the API's list and export and the dashboard's message log share
// this query. Newest first with a keyset on (createdAt, id): each page is one range scan of the index
// Message(accountId, createdAt, id), however deep, and an export reads page after page with constant
// memory (no OFFSET, no transaction held open).
import { getDatabase } from "@/lib/db/client";
import { containsText } from "@/lib/db/contains-text";
import type { Prisma } from "@/lib/db/generated/sqlite";
import { decodePageCursor, encodePageCursor } from "@/lib/model/page-cursor";
import type { SmsSource } from "./serialize-sms";
import { olderThan } from "@/lib/db/older-than";

export type MessageSearch = {
  accountId: string;
  /** true: test-key messages only; false: live ones only; undefined: both. */
  test?: boolean;
  status?: string;
  /** E.164, as stored. */
  to?: string;
  senderId?: string;
  bulkSendId?: string;
  /** Created at or after. */
  createdFrom?: Date;
  /** Created strictly before. */
  createdBefore?: Date;
  /** A carrier code or error text the carrier's response or the last error contains. */
  errorReason?: string;
  /** Text the body contains, ignoring case. */
  bodyContains?: string;
  operator?: string;
  /** true: delivered to the handset (a receipt said so); false: not (yet). */
  delivered?: boolean;
  /** A whole message id, or a part of one from either end (ids are time-ordered: the end is the random part). */
  idPart?: string;
};

export type SearchCursor = { createdAt: Date; id: string };

/** A row of a search: the Sms object's fields and what the dashboard's list shows besides. */
export type FoundMessage = SmsSource & {
  segments: number;
  test: boolean;
  bulkSendId: string | null;
  mayBeAtCarrier: boolean;
  lastError: string | null;
};

export type SearchPage = { rows: FoundMessage[]; next: SearchCursor | null };

/** Rows read per statement when every match is wanted (an export). */
export const SEARCH_CHUNK = 1000;

const FOUND_COLUMNS = {
  id: true,
  to: true,
  body: true,
  senderId: true,
  operator: true,
  charge: true,
  currency: true,
  operatorResponse: true,
  receivedAt: true,
  status: true,
  createdAt: true,
  deliveredAt: true,
  segments: true,
  test: true,
  bulkSendId: true,
  mayBeAtCarrier: true,
  lastError: true,
  priority: true,
  sendAt: true,
  validityPeriod: true,
} as const;

/** The opaque cursor of the row after which the next page starts. */
export function encodeSearchCursor(cursor: SearchCursor): string {
  return encodePageCursor({ at: cursor.createdAt, id: cursor.id });
}

/** The cursor a page link carries, or null when it is not one this module made. */
export function decodeSearchCursor(text: string): SearchCursor | null {
  const cursor = decodePageCursor(text);
  return cursor && { createdAt: cursor.at, id: cursor.id };
}

const WHOLE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function idWhere(part: string): Prisma.MessageWhereInput {
  return WHOLE_ID.test(part) ? { id: part } : { OR: [{ id: { startsWith: part } }, { id: { endsWith: part } }] };
}

function whereOf(search: MessageSearch, after: SearchCursor | null): Prisma.MessageWhereInput {
  const created =
    search.createdFrom || search.createdBefore
      ? {
          createdAt: {
            ...(search.createdFrom ? { gte: search.createdFrom } : {}),
            ...(search.createdBefore ? { lt: search.createdBefore } : {}),
          },
        }
      : {};
  return {
    accountId: search.accountId,
    ...(search.test !== undefined ? { test: search.test } : {}),
    ...(search.status ? { status: search.status } : {}),
    ...(search.to ? { to: search.to } : {}),
    ...(search.senderId ? { senderId: search.senderId } : {}),
    ...(search.bulkSendId ? { bulkSendId: search.bulkSendId } : {}),
    ...(search.bodyContains ? { body: containsText(search.bodyContains) } : {}),
    ...(search.operator ? { operator: search.operator } : {}),
    ...(search.delivered !== undefined ? { deliveredAt: search.delivered ? { not: null } : null } : {}),
    AND: [
      search.idPart ? idWhere(search.idPart) : {},
      created,
      search.errorReason
        ? { OR: [{ operatorResponse: containsText(search.errorReason) }, { lastError: containsText(search.errorReason) }] }
        : {},
      after ? olderThan("createdAt", { at: after.createdAt, id: after.id }) : {},
    ],
  };
}

/** One page of matches, newest first, starting after `after`. */
export async function searchMessages(search: MessageSearch, limit: number, after: SearchCursor | null = null): Promise<SearchPage> {
  const rows = await getDatabase().prisma.message.findMany({
    where: whereOf(search, after),
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: FOUND_COLUMNS,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > limit ? { createdAt: last.createdAt, id: last.id } : null };
}

/** Every match from `after` on, newest first, read SEARCH_CHUNK rows at a time. */
export async function* everyMessage(search: MessageSearch, after: SearchCursor | null = null): AsyncGenerator<FoundMessage[]> {
  let cursor = after;
  for (;;) {
    const page = await searchMessages(search, SEARCH_CHUNK, cursor);
    if (page.rows.length > 0) yield page.rows;
    if (!page.next) return;
    cursor = page.next;
  }
}
