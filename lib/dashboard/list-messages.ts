// The account's messages, newest first, with keyset pagination on (createdAt, id): each page is one
// range scan of the index Message(accountId, createdAt, id), however deep, so it stays fast on
// millions of rows (no OFFSET).
import { z } from "zod";
import { db } from "@/lib/db/client";
import { operatorSchema } from "@/lib/carriers/operators";
import { messageStatusSchema } from "@/lib/messages/serialize-sms";
import { parseMsisdn } from "@/lib/messages/msisdn";
import { dayParam, dayRange } from "./filters";
import { messagePageSchema, type MessagePage } from "./message-schemas";

export const MESSAGE_PAGE_SIZE = 50;
const PREVIEW_LENGTH = 80;

export const messageFiltersSchema = z.object({
  status: messageStatusSchema.optional().catch(undefined),
  operator: operatorSchema.optional().catch(undefined),
  recipient: z.string().trim().max(32).optional().catch(undefined),
  since: dayParam,
  until: dayParam,
  bulk: z.uuid().optional().catch(undefined),
  delivered: z.enum(["yes", "no"]).optional().catch(undefined),
  id: z.uuid().optional().catch(undefined),
  cursor: z.string().max(200).optional().catch(undefined),
});

export type MessageFilters = z.infer<typeof messageFiltersSchema>;

function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`).toString("base64url");
}

function decodeCursor(cursor: string | undefined): { createdAt: Date; id: string } | null {
  if (!cursor) return null;
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(at);
  return Number.isNaN(createdAt.getTime()) || !id ? null : { createdAt, id };
}

/** A recipient as typed ("0771…", "+263 77…") matches the stored E.164 form. */
export function normaliseRecipient(text: string): string {
  const parsed = parseMsisdn(text);
  return parsed.ok ? parsed.recipient.to : text.trim();
}

export async function listMessages(accountId: string, filters: MessageFilters): Promise<MessagePage> {
  const cursor = decodeCursor(filters.cursor);
  const createdRange = dayRange(filters.since, filters.until);
  const rows = await db().message.findMany({
    where: {
      accountId,
      ...(filters.id ? { id: filters.id } : {}),
      ...(filters.status ? { status: filters.status } : {}),
      ...(filters.operator ? { operator: filters.operator } : {}),
      ...(filters.recipient ? { to: normaliseRecipient(filters.recipient) } : {}),
      ...(filters.bulk ? { bulkSendId: filters.bulk } : {}),
      ...(filters.delivered ? { deliveredAt: filters.delivered === "yes" ? { not: null } : null } : {}),
      AND: [
        createdRange ? { createdAt: createdRange } : {},
        cursor ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] } : {},
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: MESSAGE_PAGE_SIZE + 1,
    select: { id: true, to: true, operator: true, status: true, senderId: true, body: true, segments: true, charge: true, currency: true, test: true, bulkSendId: true, createdAt: true, deliveredAt: true },
  });
  const page = rows.slice(0, MESSAGE_PAGE_SIZE);
  const last = page[page.length - 1];
  return messagePageSchema.parse({
    rows: page.map(({ body, ...row }) => ({
      ...row,
      bodyPreview: body.length > PREVIEW_LENGTH ? `${body.slice(0, PREVIEW_LENGTH)}…` : body,
      charge: row.charge.toString(),
      createdAt: row.createdAt.toISOString(),
      deliveredAt: row.deliveredAt?.toISOString() ?? null,
    })),
    nextCursor: rows.length > MESSAGE_PAGE_SIZE ? encodeCursor(last.createdAt, last.id) : null,
  });
}
