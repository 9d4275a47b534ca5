// The dashboard's inbox: an account's conversations (one per phone number that wrote to it), one
// conversation (what the account sent the number and what it sent back, in time order), and the
// platform's view of inbound traffic, metadata only except unrouted messages for admins. Test and
// live messages show together, each with its mode (test: it came through the sandbox).
import { db } from "@/lib/db/client";
import { inboundAddress } from "@/lib/inbound/inbound-numbers";
import { decodeCursor, encodeCursor } from "./list-messages";
import { olderThan } from "@/lib/db/older-than";

export type ConversationRow = { number: string; messages: number; lastAt: Date; lastBody: string; lastTo: string; lastMode: string };

/** The numbers that wrote to the account, latest first. */
export async function listConversations(accountId: string, limit = 100): Promise<ConversationRow[]> {
  const groups = await db().inboundMessage.groupBy({
    by: ["from"],
    where: { accountId },
    _max: { receivedAt: true },
    _count: { _all: true },
    orderBy: { _max: { receivedAt: "desc" } },
    take: limit,
  });
  const latest = await Promise.all(
    groups.map((group) =>
      db().inboundMessage.findFirst({
        where: { accountId, from: group.from },
        orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
        select: { body: true, to: true, mode: true },
      }),
    ),
  );
  return groups.map((group, index) => ({
    number: group.from,
    messages: group._count._all,
    lastAt: group._max.receivedAt ?? new Date(0),
    lastBody: latest[index]?.body ?? "",
    lastTo: latest[index]?.to ?? "",
    lastMode: latest[index]?.mode ?? "live",
  }));
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
