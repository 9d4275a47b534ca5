// Contracts of the message search (GET /api/v1/sms and GET /api/v1/sms/export): the query string,
// checked field by field so every bad filter is named at once, and the list's answer. The same
// schemas feed the OpenAPI document.
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { queryLimitSchema, queryTimeSchema, readQueryFields } from "@/lib/api/parse-request";
import { messageStatusSchema, smsSchema } from "@/lib/messages/serialize-sms";
import { recipientQuerySchema } from "@/lib/messages/msisdn";
import { SENDER_NAME_MAX_LENGTH } from "@/lib/senders/sender-name";
import { decodeSearchCursor, type MessageSearch, type SearchCursor } from "@/lib/messages/search-messages";

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 1000;

/** Each filter of the query string, as a client writes it. */
export const smsSearchQuerySchema = z
  .object({
    status: z
      .enum(messageStatusSchema.options, `must be one of ${messageStatusSchema.options.join(", ")}`)
      .optional()
      .meta({ description: "Only messages in this status" }),
    to: recipientQuerySchema
      .optional()
      .meta({ description: "Only messages to this recipient, in any written form (+263771234567, 263771234567, 0771234567)" }),
    from: z
      .string()
      .min(1, "cannot be blank")
      .max(SENDER_NAME_MAX_LENGTH, `must be at most ${SENDER_NAME_MAX_LENGTH} characters`)
      .optional()
      .meta({ description: "Only messages sent as this sender id" }),
    bulk_id: z.uuid("must be a UUID").optional().meta({ description: "Only the messages of this bulk send" }),
    created_after: queryTimeSchema("Only messages created at or after this time").optional(),
    created_before: queryTimeSchema("Only messages created before this time").optional(),
    limit: queryLimitSchema(
      MAX_LIST_LIMIT,
      DEFAULT_LIST_LIMIT,
      `Messages per page, 1 to ${MAX_LIST_LIMIT} (default ${DEFAULT_LIST_LIMIT}); the list only`,
    ).optional(),
    cursor: z
      .string()
      .refine((text) => decodeSearchCursor(text) !== null, "must be a next_cursor of an earlier answer")
      .optional()
      .meta({ description: "The `next_cursor` of the previous page; the list only" }),
  })
  .meta({ id: "SmsSearchQuery" });

export const smsListEnvelopeSchema = z
  .object({
    status: z.literal("success"),
    message: z.string(),
    data: z.array(smsSchema).meta({ description: "Newest first" }),
    next_cursor: z
      .string()
      .nullable()
      .meta({ description: "Pass as `cursor` (with the same filters) for the next page; null on the last page" }),
  })
  .meta({ id: "SmsListEnvelope" });

/** The export's query string: the list's filters; its paging fields are ignored. */
export const smsExportQuerySchema = smsSearchQuerySchema.omit({ limit: true, cursor: true });

export type SmsSearchRequest = { search: MessageSearch; limit: number; cursor: SearchCursor | null };

/**
 * The query string as a search of the account's messages in the key's mode; a bad filter is a
 * VALIDATION_ERROR naming each field. Unpaged (the export), `limit` and `cursor` are not read.
 */
export function parseSmsSearch(url: string, account: { accountId: string; test: boolean }, { paged = true } = {}): SmsSearchRequest {
  const { values, fields } = readQueryFields(url, paged ? smsSearchQuerySchema.shape : smsExportQuerySchema.shape);
  if (fields.length > 0) throw AppError.validation(fields);
  return {
    search: {
      accountId: account.accountId,
      test: account.test,
      status: values.status,
      to: values.to,
      senderId: values.from,
      bulkSendId: values.bulk_id?.toLowerCase(),
      createdFrom: values.created_after ? new Date(values.created_after) : undefined,
      createdBefore: values.created_before ? new Date(values.created_before) : undefined,
    },
    limit: values.limit ? Number(values.limit) : DEFAULT_LIST_LIMIT,
    cursor: values.cursor ? decodeSearchCursor(values.cursor) : null,
  };
}
