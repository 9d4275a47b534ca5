// One submit_sm per SMS part, encoded exactly as pricing counted it (lib/messages/segments.ts):
// GSM-7 unpacked septets with data_coding 0, or UCS-2 big-endian with data_coding 8. Parts of a long
// message carry a concatenation UDH (IEI 0x00, 8-bit reference) and esm_class 0x40.
import crypto from "node:crypto";
import { encodeGsm7, encodeUcs2, segmentMessage } from "@/lib/messages/segments";
import type { ShortMessageFields } from "./pdu";

const DATA_CODING = { gsm7: 0x00, ucs2: 0x08 } as const;
const ESM_CLASS_UDHI = 0x40;
/** registered_delivery: a receipt for the final outcome, success or failure. */
const RECEIPT_ON_FINAL = 0x01;
const TON_INTERNATIONAL = 0x01;
const TON_ALPHANUMERIC = 0x05;
const NPI_ISDN = 0x01;
const NPI_UNKNOWN = 0x00;

/** The submit_sm fields a part sets; the others go as lib/smpp/pdu.ts defaults them (empty, 0). */
export type SubmitSmFields = Required<
  Pick<
    ShortMessageFields,
    | "source_addr_ton"
    | "source_addr_npi"
    | "source_addr"
    | "dest_addr_ton"
    | "dest_addr_npi"
    | "destination_addr"
    | "esm_class"
    | "registered_delivery"
    | "data_coding"
    | "short_message"
  >
> &
  Pick<ShortMessageFields, "validity_period">;

/**
 * SMPP's relative validity_period (YYMMDDhhmmss000R) for a number of seconds, counted in days,
 * hours, minutes and seconds (a week at most here, so the years and months stay 00).
 */
export function relativeValidityPeriod(seconds: number): string {
  const whole = Math.max(1, Math.floor(seconds));
  const days = Math.floor(whole / 86_400);
  const hours = Math.floor((whole % 86_400) / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `0000${pad(days)}${pad(hours)}${pad(minutes)}${pad(whole % 60)}000R`;
}

/**
 * The reference is derived from the message id, so a resubmission after a crash carries the same
 * reference and a handset that got both copies of a part can still reassemble one message.
 */
export function concatenationReference(messageId: string): number {
  return crypto.createHash("sha256").update(messageId).digest()[0];
}

/** `validitySeconds`: what is left of the message's validity, passed on so the carrier gives up too. */
export function buildSubmitParts(
  message: { id: string; to: string; senderId: string; body: string },
  validitySeconds: number | null = null,
): SubmitSmFields[] {
  const validity = validitySeconds === null ? {} : { validity_period: relativeValidityPeriod(validitySeconds) };
  const { encoding, parts } = segmentMessage(message.body);
  const encode = encoding === "gsm7" ? encodeGsm7 : encodeUcs2;
  const numericSender = /^\+?\d+$/.test(message.senderId);
  const concatenated = parts.length > 1;
  // Hashed only for a long message: a one-part message, nearly every one, carries no UDH.
  const reference = concatenated ? concatenationReference(message.id) : 0;
  return parts.map((text, index) => {
    const udh = concatenated ? Buffer.from([0x05, 0x00, 0x03, reference, parts.length, index + 1]) : Buffer.alloc(0);
    return {
      source_addr_ton: numericSender ? TON_INTERNATIONAL : TON_ALPHANUMERIC,
      source_addr_npi: numericSender ? NPI_ISDN : NPI_UNKNOWN,
      source_addr: message.senderId.replace(/^\+/, ""),
      dest_addr_ton: TON_INTERNATIONAL,
      dest_addr_npi: NPI_ISDN,
      destination_addr: message.to.replace(/^\+/, ""),
      esm_class: concatenated ? ESM_CLASS_UDHI : 0,
      registered_delivery: RECEIPT_ON_FINAL,
      data_coding: DATA_CODING[encoding],
      short_message: Buffer.concat([udh, encode(text)]),
      ...validity,
    };
  });
}
