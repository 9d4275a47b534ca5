// Contracts of the inbound endpoints: the list's query string (each bad filter named), the inbound
// message object, and the sandbox's request. The same schemas feed the OpenAPI document.
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { queryLimitSchema, queryTimeSchema, readQueryFields } from "@/lib/api/parse-request";
import { inboundAddress, normalizeInboundNumber } from "@/lib/inbound/inbound-numbers";
import { isStorableText } from "@/lib/text";
import type { InboundMode } from "@/lib/inbound/inbound-listeners";
import { decodeInboundCursor, type InboundCursor, type InboundSearch } from "@/lib/inbound/list-inbound";
import { inboundMessageSchema } from "@/lib/inbound/serialize-inbound";

export const DEFAULT_INBOUND_LIMIT = 50;
export const MAX_INBOUND_LIMIT = 1000;

export const inboundSearchQuerySchema = z
  .object({
    from: z.string().optional().meta({
      description: "Only messages from this sender: a phone number in any written form, a short code, or a name as the message gives it",
    }),
    to: z.string().optional().meta({ description: "Only messages to this number or short code of the account" }),
    received_after: queryTimeSchema("Only messages received at or after this time").optional(),
    received_before: queryTimeSchema("Only messages received before this time").optional(),
    limit: queryLimitSchema(
      MAX_INBOUND_LIMIT,
      DEFAULT_INBOUND_LIMIT,
      `Messages per page, 1 to ${MAX_INBOUND_LIMIT} (default ${DEFAULT_INBOUND_LIMIT})`,
    ).optional(),
    cursor: z
      .string()
      .refine((text) => decodeInboundCursor(text) !== null, "must be a next_cursor of an earlier answer")
      .optional()
      .meta({ description: "The `next_cursor` of the previous page" }),
  })
  .meta({ id: "InboundSearchQuery" });

export const inboundListEnvelopeSchema = z
  .object({
    status: z.literal("success"),
    message: z.string(),
    data: z.array(inboundMessageSchema).meta({ description: "Newest first" }),
    next_cursor: z
      .string()
      .nullable()
      .meta({ description: "Pass as `cursor` (with the same filters) for the next page; null on the last page" }),
  })
  .meta({ id: "InboundListEnvelope" });

export const simulateInboundRequestSchema = z
  .object({
    from: z.string().describe("The handset's number; its prefix picks the carrier (+263 71 netone, 73 telecel, 77/78 econet)"),
    to: z.string().describe("One of the account's inbound numbers or short codes"),
    message: z.string().describe("The text, sent in as many parts as a handset would (at most 10)"),
  })
  .meta({ id: "SimulateInboundRequest" });

export const simulatedInboundSchema = z
  .object({
    from: z.string().describe("The handset's number, E.164"),
    to: z.string().describe("The account's number it goes to"),
    message: z.string(),
    operator: z.string().describe("The simulated carrier bind it arrives over"),
  })
  .meta({ id: "SimulatedInbound" });

/** The query string as a search of the account's inbound messages; a bad filter is a VALIDATION_ERROR naming each field. */
export function parseInboundSearch(
  url: string,
  accountId: string,
  mode: InboundMode,
): { search: InboundSearch; limit: number; cursor: InboundCursor | null } {
  const { values, fields } = readQueryFields(url, inboundSearchQuerySchema.shape);
  const readFrom = () => {
    if (values.from === undefined) return undefined;
    // A sender is matched as stored: a number in any written form, or a name as the carrier gave it.
    const address = inboundAddress(values.from);
    if (!address || !isStorableText(address))
      fields.push({ field: "from", description: "must be a phone number, a short code or a sender's name" });
    return address || undefined;
  };
  const readTo = () => {
    if (values.to === undefined) return undefined;
    const normalized = normalizeInboundNumber(values.to);
    if (!normalized) fields.push({ field: "to", description: "must be a phone number or a short code" });
    return normalized ?? undefined;
  };
  const from = readFrom();
  const to = readTo();
  if (fields.length > 0) throw AppError.validation(fields);
  return {
    search: {
      accountId,
      mode,
      from,
      to,
      receivedFrom: values.received_after ? new Date(values.received_after) : undefined,
      receivedBefore: values.received_before ? new Date(values.received_before) : undefined,
    },
    limit: values.limit ? Number(values.limit) : DEFAULT_INBOUND_LIMIT,
    cursor: values.cursor ? decodeInboundCursor(values.cursor) : null,
  };
}
