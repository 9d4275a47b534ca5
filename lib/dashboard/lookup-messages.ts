// Support lookup: find messages by id, id prefix or recipient across every account, newest first,
// with the account each belongs to, a page at a time. Read-only and without bodies (customer
// content stays with the customer).
import { z } from "zod";
import { db } from "@/lib/db/client";
import { parseMsisdn } from "@/lib/messages/msisdn";
import { decodeCursor, encodeCursor, messageIdParam, messageIdWhere } from "./list-messages";

export const LOOKUP_PAGE_SIZE = 50;

export const lookupQuerySchema = z.string().trim().min(3, "type a message id or a phone number").max(64);

export type LookupRow = {
  id: string;
  accountId: string;
  accountName: string;
  to: string;
  senderId: string;
  operator: string;
  status: string;
  createdAt: Date;
  deliveredAt: Date | null;
};

export type LookupPage = { rows: LookupRow[]; nextCursor: string | null };

/** A phone number in any written form, else a message id or id prefix; null when the text is neither. */
function lookupWhere(text: string) {
  const phone = parseMsisdn(text);
  if (phone.ok) return { to: phone.recipient.to };
  const id = messageIdParam.safeParse(text);
  return id.success ? messageIdWhere(id.data) : null;
}

export async function lookupMessages(query: string, cursorText?: string): Promise<LookupPage> {
  const where = lookupWhere(lookupQuerySchema.parse(query));
  if (!where) return { rows: [], nextCursor: null };
  const cursor = decodeCursor(cursorText);
  const rows = await db().message.findMany({
    where: {
      AND: [where, cursor ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] } : {}],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: LOOKUP_PAGE_SIZE + 1,
    select: {
      id: true,
      accountId: true,
      to: true,
      senderId: true,
      operator: true,
      status: true,
      createdAt: true,
      deliveredAt: true,
      account: { select: { name: true } },
    },
  });
  const page = rows.slice(0, LOOKUP_PAGE_SIZE).map(({ account, ...row }) => ({ ...row, accountName: account.name }));
  const last = page[page.length - 1];
  return { rows: page, nextCursor: rows.length > LOOKUP_PAGE_SIZE ? encodeCursor(last.createdAt, last.id) : null };
}
