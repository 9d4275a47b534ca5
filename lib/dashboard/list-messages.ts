// The account's messages, newest first, with keyset pagination on (createdAt, id): each page is one
// range scan of the index Message(accountId, createdAt, id), however deep, so it stays fast on
// millions of rows (no OFFSET).
import { z } from "zod";
import { db } from "@/lib/db/client";
import { operatorSchema } from "@/lib/carriers/operators";
import { messageStatusSchema } from "@/lib/messages/serialize-sms";
import { parseMsisdn } from "@/lib/messages/msisdn";
import { dayParam, dayRange, parseFilters, type ParsedFilters } from "./filters";
import { messagePageSchema, type MessagePage } from "./message-schemas";

export const MESSAGE_PAGE_SIZE = 50;
const PREVIEW_LENGTH = 80;

/** A full message id, its short form (the last 8 characters the lists show, "…" optional) or any part of at least 4 characters from either end. */
export const messageIdParam = z
  .string()
  .trim()
  .toLowerCase()
  .transform((text) => text.replace(/^…|…$/g, ""))
  .pipe(
    z
      .string()
      .regex(/^[0-9a-f][0-9a-f-]{3,35}$/, "use the message id, the short id shown in the list, or at least 4 of its characters (0-9, a-f)"),
  );

/**
 * The where clause of a message id or a part of one. Ids are UUIDv7: the start is the creation time
 * (shared by a bulk send), the end is random, which is why the lists show the end as the short id.
 */
export function messageIdWhere(id: string) {
  return z.uuid().safeParse(id).success ? { id } : { OR: [{ id: { startsWith: id } }, { id: { endsWith: id } }] };
}

export function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`).toString("base64url");
}

export function decodeCursor(cursor: string | undefined): { createdAt: Date; id: string } | null {
  if (!cursor) return null;
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(at);
  return Number.isNaN(createdAt.getTime()) || !id ? null : { createdAt, id };
}

const messageFilterFields = {
  status: z.enum(messageStatusSchema.options, "choose one of the listed statuses"),
  operator: z.enum(operatorSchema.options, "choose Econet, NetOne or Telecel"),
  recipient: z.string().trim().max(32, "at most 32 characters"),
  since: dayParam,
  until: dayParam,
  bulk: z.uuid("use the bulk send's full id"),
  delivered: z.enum(["yes", "no"], "choose yes or not yet"),
  id: messageIdParam,
  cursor: z
    .string()
    .max(200)
    .refine((text) => decodeCursor(text) !== null, "this page link is not valid; start from the first page"),
};

const messageFilterLabels = {
  status: "Status",
  operator: "Carrier",
  recipient: "Recipient",
  since: "From",
  until: "To",
  bulk: "Bulk send",
  delivered: "Delivered",
  id: "Message id",
  cursor: "Page",
};

export type MessageFilters = ParsedFilters<typeof messageFilterFields>["filters"];

export function parseMessageFilters(params: Record<string, string | undefined>): ParsedFilters<typeof messageFilterFields> {
  return parseFilters(messageFilterFields, messageFilterLabels, params);
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
      ...(filters.id ? messageIdWhere(filters.id) : {}),
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
    select: {
      id: true,
      to: true,
      operator: true,
      status: true,
      senderId: true,
      body: true,
      segments: true,
      charge: true,
      currency: true,
      test: true,
      bulkSendId: true,
      createdAt: true,
      deliveredAt: true,
    },
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
