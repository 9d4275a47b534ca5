// Contracts of the SMS endpoints (spec 2.3, 4.1-4.3), one zod schema each, reused for request
// validation, response serialisation (nothing unlisted can leak) and the OpenAPI document. The Sms
// object (spec 2.2) belongs to the messages domain: lib/messages/serialize-sms.ts.
// Requests are checked here for shape and type only; what the values mean (recipients, blank
// fields, length, sender) is checked by lib/messages/accept-messages.ts, which the dashboard
// shares, so every field error of a request is reported at once.
import { z } from "zod";
import { operatorSchema } from "@/lib/carriers/operators";
import { MAX_BULK_RECIPIENTS, MAX_VALIDITY_SECONDS, MIN_VALIDITY_SECONDS } from "@/lib/messages/accept-messages";
import { messageStatusSchema } from "@/lib/messages/serialize-sms";

const text = (description: string, example: string) => z.string().meta({ description, example });

const webhookUrl = z
  .string()
  .meta({
    description: "Callback URL (http or https, public address) applied to every message of the send",
    example: "https://example.com/hooks/sms",
  })
  .nullish();

const priority = z
  .enum(["normal", "high"])
  .meta({ description: "high: sent before every normal message queued for the same carrier", example: "high" })
  .nullish();
// The request checks send_at's and validity_period's types only; their format and range are checked
// with what the other values mean (lib/messages/accept-messages.ts), and stated here for the document.
const sendAt = z
  .string()
  .meta({
    format: "date-time",
    description:
      "RFC 3339 time, from now to 35 days ahead: the messages read status created until then, then are queued. " +
      "A time at most a minute past counts as now. For example 09:00 in Harare on a day within the range: <date>T09:00:00+02:00",
  })
  .nullish();
const validityPeriod = z
  .number()
  .meta({
    type: "integer",
    minimum: MIN_VALIDITY_SECONDS,
    maximum: MAX_VALIDITY_SECONDS,
    description: `Whole seconds (${MIN_VALIDITY_SECONDS} to ${MAX_VALIDITY_SECONDS}) the messages may wait for the carrier; not handed over by then they fail with operator_response EXPIRED and are refunded`,
    example: 600,
  })
  .nullish();

export const sendSmsRequestSchema = z
  .object({
    to: text("Recipient MSISDN: +263771234567, 263771234567 or 0771234567 (econet, netone, telecel)", "+263771234567"),
    message: text(
      "Body; billed per segment (GSM-7: 160, or 153 per part; UCS-2: 70, or 67 per part; at most 10 parts)",
      "Your code is 4821",
    ),
    from: text("An approved sender id of the account", "ACME"),
    webhook_url: webhookUrl,
    priority,
    send_at: sendAt,
    validity_period: validityPeriod,
  })
  .meta({ id: "SendSmsRequest" });

export const sendBulkSmsRequestSchema = z
  .object({
    to: z
      .array(z.string())
      .min(1, "must contain at least one recipient")
      .max(MAX_BULK_RECIPIENTS, `must contain at most ${MAX_BULK_RECIPIENTS} recipients`)
      .meta({ description: "Recipient MSISDNs; duplicates are each sent", example: ["+263771234567", "0711234567"] }),
    message: text("Body sent to every recipient; billed per segment", "Our offices close at 3pm today"),
    from: text("An approved sender id of the account", "ACME"),
    webhook_url: webhookUrl,
    priority,
    send_at: sendAt,
    validity_period: validityPeriod,
  })
  .meta({ id: "SendBulkSmsRequest" });

export const bulkSmsItemSchema = z
  .object({
    id: z.uuid(),
    to: z.string(),
    status: messageStatusSchema,
    operator: operatorSchema,
    charge: z.int().nonnegative().meta({ description: "Ten-thousandths held for this recipient, as an integer", example: 350 }),
    charge_currency: z.string(),
  })
  .strict()
  .meta({ id: "BulkSmsItem" });

export const optedOutRecipientSchema = z
  .object({
    index: z.int().nonnegative().meta({ description: "Position of the recipient in the request's `to`" }),
    to: z.string().meta({ description: "The recipient in E.164" }),
  })
  .strict()
  .meta({ id: "OptedOutRecipient" });

export const bulkSmsResultSchema = z
  .object({
    bulk_id: z.uuid().meta({ description: "The bulk send's id: filter the message list by it, or cancel what is still queued" }),
    total: z.int().nonnegative().meta({ description: "Recipients accepted" }),
    charge: z.int().nonnegative().meta({ description: "Total held, in ten-thousandths, as an integer" }),
    currency: z.string(),
    items: z.array(bulkSmsItemSchema).meta({ description: "One per recipient sent, in request order" }),
    opted_out: z
      .array(optedOutRecipientSchema)
      .optional()
      .meta({ description: "Recipients not sent nor charged: on the account's opt-out list. Present only when there are any" }),
  })
  .strict()
  .meta({ id: "BulkSmsResult" });

export type SendSmsRequest = z.infer<typeof sendSmsRequestSchema>;
export type SendBulkSmsRequest = z.infer<typeof sendBulkSmsRequestSchema>;
export type BulkSmsResult = z.infer<typeof bulkSmsResultSchema>;
export type BulkSmsItem = z.infer<typeof bulkSmsItemSchema>;

export const bulkCancellationSchema = z
  .object({
    bulk_id: z.uuid(),
    total: z.int().nonnegative().meta({ description: "Messages of the bulk send" }),
    cancelled: z.int().nonnegative().meta({ description: "Cancelled by this request (failed, operator_response CANCELLED, refunded)" }),
    not_cancelled: z
      .int()
      .nonnegative()
      .meta({ description: "Not cancelled by this request: already handed to a carrier, or already final" }),
  })
  .strict()
  .meta({ id: "BulkCancellation" });
