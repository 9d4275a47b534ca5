// A stored message as the spec's Sms object (spec 2.2): the answer of the SMS endpoints, the data of
// every webhook payload and the dashboard's message rows. Serialised through the strict schema, so
// nothing unlisted can leak. SmsSource: any message record with these fields (a Prisma Message, an
// AcceptedMessage).
import { z } from "zod";
import { MessageStatus } from "@/lib/model/message-status";
import type { Message } from "@/lib/db/generated/sqlite";
import { operatorSchema } from "@/lib/carriers/operators";

const timestamp = z.iso.datetime({ offset: true });

export const messageStatusSchema = z.enum(MessageStatus);

export const smsSchema = z
  .object({
    id: z.uuid(),
    to: z.string().meta({ description: "Recipient MSISDN, E.164" }),
    message: z.string(),
    sender_id: z.string(),
    operator: operatorSchema,
    charge: z
      .string()
      .regex(/^\d+$/)
      .meta({ description: "Ten-thousandths of charge_currency (10000 = 1.00), as a string", example: "350" }),
    charge_currency: z.string(),
    operator_response: z.string().meta({ description: "Raw carrier response; empty until dispatched" }),
    received_at: timestamp,
    status: messageStatusSchema,
    created_at: timestamp,
    delivered_at: timestamp.nullable().meta({ description: "Null until the carrier confirms delivery to the handset" }),
    priority: z.enum(["normal", "high"]),
    send_at: timestamp.nullable().meta({ description: "A scheduled send's time; null when sent at once" }),
    validity_period: z.int().nullable().meta({ description: "Seconds the message may wait for the carrier; null when unbounded" }),
  })
  .strict()
  .meta({ id: "Sms" });

export type Sms = z.infer<typeof smsSchema>;

export type SmsSource = Pick<
  Message,
  | "id"
  | "to"
  | "body"
  | "senderId"
  | "operator"
  | "charge"
  | "currency"
  | "operatorResponse"
  | "receivedAt"
  | "status"
  | "createdAt"
  | "deliveredAt"
  | "sendAt"
  | "validityPeriod"
> & { priority: string };

export function serializeSms(message: SmsSource): Sms {
  return smsSchema.parse({
    id: message.id,
    to: message.to,
    message: message.body,
    sender_id: message.senderId,
    operator: message.operator,
    charge: message.charge.toString(),
    charge_currency: message.currency,
    operator_response: message.operatorResponse,
    received_at: message.receivedAt.toISOString(),
    status: message.status,
    created_at: message.createdAt.toISOString(),
    delivered_at: message.deliveredAt ? message.deliveredAt.toISOString() : null,
    priority: message.priority === "high" ? "high" : "normal",
    send_at: message.sendAt ? message.sendAt.toISOString() : null,
    validity_period: message.validityPeriod,
  });
}
