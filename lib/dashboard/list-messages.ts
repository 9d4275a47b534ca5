// The account's messages, newest first, with keyset pagination on (createdAt, id): each page is one
// range scan of the index Message(accountId, createdAt, id), however deep, so it stays fast on
// millions of rows (no OFFSET). The query is the messages domain's search, which the API's list and
// the CSV export share, so an export holds exactly the rows the list shows.
import { z } from "zod";
import { operatorSchema } from "@/lib/carriers/operators";
import { messageStatusSchema } from "@/lib/messages/serialize-sms";
import { recipientQuerySchema } from "@/lib/messages/msisdn";
import { searchMessages, type MessageSearch } from "@/lib/messages/search-messages";
import { isCancellable } from "@/lib/messages/cancel-messages";
import { FAILURE_REASON_FILTERS } from "@/lib/messages/vocabulary";
import { SENDER_NAME_MAX_LENGTH } from "@/lib/senders/sender-name";
import type { Role } from "@/lib/users/roles";
import type { FieldError } from "@/lib/errors";
import { dayParam, dayRange, parseFilters, type ParsedFilters } from "./filters";
import { messagePageSchema, type MessagePage } from "./message-schemas";
import { isTestView, type ViewMode } from "./view-mode";

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
  // Split at the first "|" only: the time never holds one, a key that is a sender's name may.
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const separator = text.indexOf("|");
  const createdAt = new Date(text.slice(0, separator));
  const id = text.slice(separator + 1);
  return separator < 0 || Number.isNaN(createdAt.getTime()) || !id ? null : { createdAt, id };
}

const messageFilterFields = {
  status: z.enum(messageStatusSchema.options, "choose one of the listed statuses"),
  operator: z.enum(operatorSchema.options, "choose Econet, NetOne or Telecel"),
  recipient: recipientQuerySchema,
  since: dayParam,
  until: dayParam,
  bulk: z.uuid("use the bulk send's full id"),
  delivered: z.enum(["yes", "no"], "choose yes or not yet"),
  id: messageIdParam,
  sender: z.string().trim().max(SENDER_NAME_MAX_LENGTH, `at most ${SENDER_NAME_MAX_LENGTH} characters`),
  reason: z.enum(
    FAILURE_REASON_FILTERS.map((reason) => reason.value),
    "choose one of the listed reasons",
  ),
  text: z.string().trim().min(2, "at least 2 characters").max(100, "at most 100 characters"),
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
  sender: "Sender id",
  reason: "Error reason",
  text: "Message text",
  cursor: "Page",
};

/** Who may search by what a message says: the roles that read bodies (support never does). */
export const BODY_SEARCH_ROLES: readonly Role[] = ["owner", "developer"];

export type MessageFilters = ParsedFilters<typeof messageFilterFields>["filters"];

/** The filters of a URL; `text` only for a role that reads bodies (for any other, or none given, it is refused, named). */
export function parseMessageFilters(
  params: Record<string, string | undefined>,
  role: Role = "support",
): ParsedFilters<typeof messageFilterFields> {
  const parsed = parseFilters(messageFilterFields, messageFilterLabels, params, { dayRange: ["since", "until"] });
  if (parsed.filters.text === undefined || BODY_SEARCH_ROLES.includes(role)) return parsed;
  const { text: _text, ...filters } = parsed.filters;
  const refused: FieldError = { field: "text", description: "Message text: your role does not read message bodies" };
  return { filters, problems: [...parsed.problems, refused] };
}

/** The domain's search of the account's messages of one view (test-key messages or live ones) by these filters. */
export function messageSearchOf(accountId: string, filters: MessageFilters, mode: ViewMode): MessageSearch {
  const created = dayRange(filters.since, filters.until);
  return {
    accountId,
    test: isTestView(mode),
    idPart: filters.id,
    status: filters.status,
    operator: filters.operator,
    to: filters.recipient,
    senderId: filters.sender,
    bulkSendId: filters.bulk,
    delivered: filters.delivered ? filters.delivered === "yes" : undefined,
    errorReason: filters.reason,
    bodyContains: filters.text,
    createdFrom: created?.gte,
    createdBefore: created?.lt,
  };
}

export async function listMessages(accountId: string, filters: MessageFilters, mode: ViewMode): Promise<MessagePage> {
  const page = await searchMessages(messageSearchOf(accountId, filters, mode), MESSAGE_PAGE_SIZE, decodeCursor(filters.cursor));
  return messagePageSchema.parse({
    rows: page.rows.map((row) => ({
      id: row.id,
      to: row.to,
      operator: row.operator,
      status: row.status,
      senderId: row.senderId,
      bodyPreview: row.body.length > PREVIEW_LENGTH ? `${row.body.slice(0, PREVIEW_LENGTH)}…` : row.body,
      segments: row.segments,
      charge: row.charge.toString(),
      currency: row.currency,
      test: row.test,
      bulkSendId: row.bulkSendId,
      createdAt: row.createdAt.toISOString(),
      deliveredAt: row.deliveredAt?.toISOString() ?? null,
      sendAt: row.sendAt?.toISOString() ?? null,
      cancellable: isCancellable(row),
    })),
    nextCursor: page.next ? encodeCursor(page.next.createdAt, page.next.id) : null,
  });
}
