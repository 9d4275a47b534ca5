// A stored inbound message as the API's InboundMessage object: the answer of GET /api/v1/inbound
// and /api/v1/inbound/{id}, and the data of the message.received event. One shape for both, so a
// webhook never carries a field the API does not document.
import { z } from "zod";
import type { StoredInboundMessage } from "./inbound-listeners";

export const inboundMessageSchema = z
  .object({
    id: z.uuid(),
    from: z.string().describe("The sender's phone number, E.164 where it reads as one"),
    to: z.string().describe("The account's number or short code it was sent to"),
    message: z.string().describe("The text, reassembled when it came in parts; binary data as hex"),
    operator: z.string().describe("The carrier it came from: econet, netone or telecel"),
    received_at: z.iso.datetime({ offset: true }),
    encoding: z.enum(["gsm7", "ucs2", "latin1", "binary"]),
    segments: z.int().describe("Parts it came in"),
    complete: z.boolean().describe("False when some of its parts never came within the reassembly timeout: `message` holds those that did"),
  })
  .meta({ id: "InboundMessage" });

export type InboundMessageObject = z.infer<typeof inboundMessageSchema>;

/** Any stored inbound message (a listener's, a listed one): the fields the object shows. */
export type InboundSource = Omit<StoredInboundMessage, "mode" | "accountId">;

export function serializeInbound(message: InboundSource): InboundMessageObject {
  return {
    id: message.id,
    from: message.from,
    to: message.to,
    message: message.body,
    operator: message.operator,
    received_at: message.receivedAt.toISOString(),
    encoding: message.encoding as InboundMessageObject["encoding"],
    segments: message.segments,
    complete: message.complete,
  };
}
