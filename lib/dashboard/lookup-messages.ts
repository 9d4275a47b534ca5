// Support lookup: find messages by id or recipient across every account, newest first, with the
// account each belongs to. Read-only and without bodies (customer content stays with the customer).
import { z } from "zod";
import { db } from "@/lib/db/client";
import { normaliseRecipient } from "./list-messages";

export const LOOKUP_LIMIT = 50;

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

export async function lookupMessages(query: string): Promise<LookupRow[]> {
  const text = lookupQuerySchema.parse(query);
  const byId = z.uuid().safeParse(text.toLowerCase());
  const rows = await db().message.findMany({
    where: byId.success ? { id: byId.data } : { to: normaliseRecipient(text) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: LOOKUP_LIMIT,
    select: { id: true, accountId: true, to: true, senderId: true, operator: true, status: true, createdAt: true, deliveredAt: true, account: { select: { name: true } } },
  });
  return rows.map(({ account, ...row }) => ({ ...row, accountName: account.name }));
}
