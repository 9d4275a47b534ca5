// The dashboard's inbox: an account's conversations (one per phone number that wrote to it), one
// conversation (what the account sent the number and what it sent back, in time order), and the
// platform's view of inbound traffic, metadata only except unrouted messages for admins. Test and
// live messages show together, each with its mode (test: it came through the sandbox).
import { z } from "zod";
import { db } from "@/lib/db/client";
import { inboundAddress, normalizeInboundNumber } from "@/lib/inbound/inbound-numbers";
import { parseFilters, type ParsedFilters } from "./filters";
import { decodeCursor, encodeCursor } from "./list-messages";
import { olderThan } from "@/lib/db/older-than";

export type ConversationRow = { number: string; messages: number; lastAt: Date; lastBody: string; lastTo: string; lastMode: string };

export const CONVERSATION_PAGE_SIZE = 50;

export type ConversationPage = { rows: ConversationRow[]; nextCursor: string | null };

/**
 * A page of the numbers that wrote to the account, latest first, keyset on (last receivedAt,
 * number): following nextCursor reaches the oldest conversation. Two queries a page, however many
 * rows: the conversations, then the last message of each.
 */
export async function listConversations(accountId: string, options: { cursor?: string; limit?: number } = {}): Promise<ConversationPage> {
  const limit = options.limit ?? CONVERSATION_PAGE_SIZE;
  const cursor = decodeCursor(options.cursor);
  const groups = await db().inboundMessage.groupBy({
    by: ["from"],
    where: { accountId },
    having: cursor
      ? {
          OR: [
            { receivedAt: { _max: { lt: cursor.createdAt } } },
            { receivedAt: { _max: { equals: cursor.createdAt } }, from: { lt: cursor.id } },
          ],
        }
      : undefined,
    _max: { receivedAt: true },
    _count: { _all: true },
    orderBy: [{ _max: { receivedAt: "desc" } }, { from: "desc" }],
    take: limit + 1,
  });
  const page = groups.slice(0, limit).map((group) => ({ number: group.from, messages: group._count._all, lastAt: group._max.receivedAt! }));
  if (page.length === 0) return { rows: [], nextCursor: null };
  // Each number's messages at its last instant; of two at that instant the later id is the last.
  const latest = await db().inboundMessage.findMany({
    where: { accountId, OR: page.map((row) => ({ from: row.number, receivedAt: row.lastAt })) },
    orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
    select: { from: true, body: true, to: true, mode: true },
  });
  const lastOf = new Map<string, (typeof latest)[number]>();
  for (const message of latest) if (!lastOf.has(message.from)) lastOf.set(message.from, message);
  const last = page[page.length - 1];
  return {
    rows: page.map((row) => {
      const message = lastOf.get(row.number);
      return { ...row, lastBody: message?.body ?? "", lastTo: message?.to ?? "", lastMode: message?.mode ?? "live" };
    }),
    nextCursor: groups.length > limit ? encodeCursor(last.lastAt, last.number) : null,
  };
}

/** SMPP's source_addr: at most 20 characters, so no stored sender is longer. */
const SENDER_ADDRESS_MAX_LENGTH = 20;

/** What a number or sender typed into the Inbox's search reads as, in the form its messages are stored under. */
const conversationSearch = z
  .string()
  .trim()
  .max(SENDER_ADDRESS_MAX_LENGTH, `at most ${SENDER_ADDRESS_MAX_LENGTH} characters`)
  .transform((text, context) => {
    const number = normalizeInboundNumber(text);
    if (number) return number;
    // A carrier gives a sender that is a name as written; anything without a letter was meant as a number.
    if (/\p{L}/u.test(text)) return text;
    context.addIssue({ code: "custom", message: `"${text}" is not a phone number, short code or sender name` });
    return z.NEVER;
  });

const inboxFilterFields = {
  find: conversationSearch,
  cursor: z
    .string()
    .max(200)
    .refine((text) => decodeCursor(text) !== null, "this page link is not valid; start from the newest"),
};

const inboxFilterLabels = { find: "Number or sender", cursor: "Page" };

export type InboxFilters = ParsedFilters<typeof inboxFilterFields>["filters"];

/** The Inbox's search and page of a URL; a bad value is left out and named. */
export function parseInboxFilters(params: Record<string, string | undefined>): ParsedFilters<typeof inboxFilterFields> {
  return parseFilters(inboxFilterFields, inboxFilterLabels, params);
}

/** Whether the number (as stored) ever wrote to the account. */
export async function hasConversation(accountId: string, number: string): Promise<boolean> {
  return (await db().inboundMessage.findFirst({ where: { accountId, from: number }, select: { id: true } })) !== null;
}

export type ConversationEntry =
  | { direction: "in"; id: string; at: Date; body: string; to: string; operator: string; complete: boolean; mode: string }
  | {
      direction: "out";
      id: string;
      at: Date;
      body: string;
      from: string;
      status: string;
      deliveredAt: Date | null;
      sendAt: Date | null;
      test: boolean;
    };

/** The last `limit` messages each way between the account and one phone number, oldest first. */
export async function getConversation(
  accountId: string,
  rawNumber: string,
  limit = 200,
): Promise<{ number: string; entries: ConversationEntry[] } | null> {
  // The sender as stored, so every listed conversation opens, a sender that is a name included.
  const number = inboundAddress(rawNumber);
  if (!number) return null;
  const [inbound, outbound] = await Promise.all([
    db().inboundMessage.findMany({
      where: { accountId, from: number },
      orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
      take: limit,
      select: { id: true, receivedAt: true, body: true, to: true, operator: true, complete: true, mode: true },
    }),
    db().message.findMany({
      where: { accountId, to: number },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
      select: { id: true, createdAt: true, body: true, senderId: true, status: true, deliveredAt: true, sendAt: true, test: true },
    }),
  ]);
  const entries: ConversationEntry[] = [
    ...inbound.map((row) => ({
      direction: "in" as const,
      id: row.id,
      at: row.receivedAt,
      body: row.body,
      to: row.to,
      operator: row.operator,
      complete: row.complete,
      mode: row.mode,
    })),
    ...outbound.map((row) => ({
      direction: "out" as const,
      id: row.id,
      at: row.createdAt,
      body: row.body,
      from: row.senderId,
      status: row.status,
      deliveredAt: row.deliveredAt,
      sendAt: row.sendAt,
      test: row.test,
    })),
  ];
  entries.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : 1));
  return { number, entries };
}

export type PlatformInboundRow = {
  id: string;
  accountName: string | null;
  from: string;
  to: string;
  operator: string;
  encoding: string;
  segments: number;
  complete: boolean;
  receivedAt: Date;
  mode: string;
  /** Only for unrouted messages shown to admins. */
  body: string | null;
};

export const PLATFORM_INBOUND_PAGE_SIZE = 200;

export type PlatformInboundPage = { rows: PlatformInboundRow[]; nextCursor: string | null };

/**
 * A page of every account's inbound messages (no bodies), or of the unrouted ones with their
 * bodies, newest first, keyset on (receivedAt, id): following nextCursor reaches the last one.
 */
export async function listPlatformInbound(options: { unrouted: boolean; cursor?: string; limit?: number }): Promise<PlatformInboundPage> {
  const limit = options.limit ?? PLATFORM_INBOUND_PAGE_SIZE;
  const cursor = decodeCursor(options.cursor);
  const rows = await db().inboundMessage.findMany({
    where: {
      AND: [options.unrouted ? { accountId: null } : {}, cursor ? olderThan("receivedAt", { at: cursor.createdAt, id: cursor.id }) : {}],
    },
    orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: {
      id: true,
      accountId: true,
      from: true,
      to: true,
      operator: true,
      encoding: true,
      segments: true,
      complete: true,
      receivedAt: true,
      mode: true,
      body: options.unrouted,
    },
  });
  const page = rows.slice(0, limit);
  const accountIds = [...new Set(page.map((row) => row.accountId).filter((id): id is string => id !== null))];
  const accounts = await db().account.findMany({ where: { id: { in: accountIds } }, select: { id: true, name: true } });
  const names = new Map(accounts.map((account) => [account.id, account.name]));
  const last = page[page.length - 1];
  return {
    rows: page.map((row) => ({
      id: row.id,
      accountName: row.accountId ? (names.get(row.accountId) ?? row.accountId) : null,
      from: row.from,
      to: row.to,
      operator: row.operator,
      encoding: row.encoding,
      segments: row.segments,
      complete: row.complete,
      receivedAt: row.receivedAt,
      mode: row.mode,
      body: options.unrouted ? ((row as { body?: string }).body ?? "") : null,
    })),
    nextCursor: rows.length > limit ? encodeCursor(last.receivedAt, last.id) : null,
  };
}
