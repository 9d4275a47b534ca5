// Reading an account's inbound messages: one page at a time, newest first, behind an opaque cursor.
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/sqlite";
import { decodePageCursor, encodePageCursor } from "@/lib/model/page-cursor";
import type { InboundMode, StoredInboundMessage } from "./inbound-listeners";
import { olderThan } from "@/lib/db/older-than";

export type InboundSearch = {
  /** An account's messages, or null for the unrouted ones (admins). */
  accountId: string | null;
  /** Only the messages of this mode: what a test key or a live key reads. */
  mode: InboundMode;
  from?: string;
  to?: string;
  receivedFrom?: Date;
  receivedBefore?: Date;
};

export type InboundCursor = { receivedAt: Date; id: string };

/** A stored inbound message as read back: its mode is the column's text. */
export type InboundRecord = Omit<StoredInboundMessage, "mode"> & { mode: string };

const COLUMNS = {
  id: true,
  accountId: true,
  from: true,
  to: true,
  body: true,
  operator: true,
  encoding: true,
  segments: true,
  complete: true,
  receivedAt: true,
  mode: true,
} as const;

export function encodeInboundCursor(cursor: InboundCursor): string {
  return encodePageCursor({ at: cursor.receivedAt, id: cursor.id });
}

/** The cursor a page link carries, or null when it is not one this module made. */
export function decodeInboundCursor(text: string): InboundCursor | null {
  const cursor = decodePageCursor(text);
  return cursor && { receivedAt: cursor.at, id: cursor.id };
}

function whereOf(search: InboundSearch, after: InboundCursor | null): Prisma.InboundMessageWhereInput {
  return {
    accountId: search.accountId,
    mode: search.mode,
    ...(search.from ? { from: search.from } : {}),
    ...(search.to ? { to: search.to } : {}),
    AND: [
      search.receivedFrom ? { receivedAt: { gte: search.receivedFrom } } : {},
      search.receivedBefore ? { receivedAt: { lt: search.receivedBefore } } : {},
      after ? olderThan("receivedAt", { at: after.receivedAt, id: after.id }) : {},
    ],
  };
}

export async function listInbound(
  search: InboundSearch,
  limit: number,
  after: InboundCursor | null = null,
): Promise<{ rows: InboundRecord[]; next: InboundCursor | null }> {
  const rows = await db().inboundMessage.findMany({
    where: whereOf(search, after),
    orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: COLUMNS,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > limit ? { receivedAt: last.receivedAt, id: last.id } : null };
}

/** One inbound message of an account in one mode; null when it is not the account's, is of the other mode, or does not exist. */
export async function getInbound(accountId: string, mode: InboundMode, id: string): Promise<InboundRecord | null> {
  return db().inboundMessage.findFirst({ where: { id, accountId, mode }, select: COLUMNS });
}
