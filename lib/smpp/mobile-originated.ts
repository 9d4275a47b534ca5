// A mobile-originated deliver_sm (no receipt flag in esm_class): its addresses, its user data apart
// from the concatenation header, and how to decode that data. Concatenation comes from a UDH
// (esm_class UDHI, information element 0x00 with an 8-bit reference or 0x08 with a 16-bit one) or
// from the SAR TLVs; a part's bytes are decoded only once all parts are joined, so that a UCS-2
// surrogate pair or a GSM-7 escape split between two parts still decodes.
import crypto from "node:crypto";
import { decodeGsm7, decodeUcs2 } from "@/lib/messages/segments";
import type { ShortMessageFields } from "./pdu";

const ESM_CLASS_UDHI = 0x40;
/** Message type bits of esm_class (bits 5-2): 0 is a plain short message; others are receipts and acknowledgements. */
const ESM_CLASS_TYPE_MASK = 0x3c;

export type InboundEncoding = "gsm7" | "ucs2" | "latin1" | "binary";

export type MobileOriginated = {
  source: string;
  destination: string;
  dataCoding: number;
  /** The user data without its UDH. */
  payload: Buffer;
  /** Present when the PDU is one part of a concatenated message. */
  part: { reference: number; total: number; number: number } | null;
  /** The carrier's identity of this PDU: the same PDU sent again hashes the same. */
  identity: string;
};

/** A deliver_sm whose esm_class message type is 0 (not a receipt or acknowledgement). */
export function isMobileOriginated(fields: ShortMessageFields): boolean {
  return (fields.esm_class & ESM_CLASS_TYPE_MASK) === 0;
}

function concatenationOfUdh(udh: Buffer): MobileOriginated["part"] {
  let offset = 1;
  while (offset + 2 <= udh.length) {
    const id = udh[offset];
    const length = udh[offset + 1];
    const data = udh.subarray(offset + 2, offset + 2 + length);
    if (id === 0x00 && data.length === 3) return { reference: data[0], total: data[1], number: data[2] };
    if (id === 0x08 && data.length === 4) return { reference: data.readUInt16BE(0), total: data[2], number: data[3] };
    offset += 2 + length;
  }
  return null;
}

export function mobileOriginatedFromDeliverSm(fields: ShortMessageFields): MobileOriginated {
  const data = fields.message_payload && fields.message_payload.length > 0 ? fields.message_payload : fields.short_message;
  let payload = data;
  let part: MobileOriginated["part"] = null;
  if ((fields.esm_class & ESM_CLASS_UDHI) !== 0 && data.length > 0 && data.length >= 1 + data[0]) {
    const udh = data.subarray(0, 1 + data[0]);
    payload = data.subarray(udh.length);
    part = concatenationOfUdh(udh);
  } else if (fields.sar_msg_ref_num !== undefined && fields.sar_total_segments !== undefined && fields.sar_segment_seqnum !== undefined) {
    part = { reference: fields.sar_msg_ref_num, total: fields.sar_total_segments, number: fields.sar_segment_seqnum };
  }
  // A "part" 1 of 1 is a whole message; a part numbered outside its total is taken as a whole one.
  if (part && (part.total <= 1 || part.number < 1 || part.number > part.total)) part = null;
  const identity = crypto
    .createHash("sha256")
    .update(
      [
        fields.source_addr,
        fields.destination_addr,
        fields.esm_class,
        fields.data_coding,
        fields.short_message.toString("hex"),
        fields.message_payload?.toString("hex") ?? "",
        fields.sar_msg_ref_num ?? "",
        fields.sar_total_segments ?? "",
        fields.sar_segment_seqnum ?? "",
      ].join("|"),
    )
    .digest("base64url");
  return { source: fields.source_addr, destination: fields.destination_addr, dataCoding: fields.data_coding, payload, part, identity };
}

/**
 * The alphabet of a data_coding (SMPP 3.4 section 5.2.19, 3GPP TS 23.038): 0 the SMSC default
 * (GSM-7, one septet per octet), 1 IA5/ASCII and 3 Latin-1 as Latin-1, 8 UCS-2, 2 and 4 octets;
 * the coding groups 0x0X-0x3X and 0xF0-0xFF by their alphabet bits; anything else as GSM-7.
 */
export function encodingOfDataCoding(dataCoding: number): InboundEncoding {
  switch (dataCoding) {
    case 0x00:
      return "gsm7";
    case 0x01:
    case 0x03:
      return "latin1";
    case 0x02:
    case 0x04:
      return "binary";
    case 0x08:
      return "ucs2";
  }
  if (dataCoding < 0x40) {
    // General data coding groups: the alphabet is bits 3-2.
    const alphabet = (dataCoding >> 2) & 0x03;
    return alphabet === 0x02 ? "ucs2" : alphabet === 0x01 ? "binary" : "gsm7";
  }
  if ((dataCoding & 0xf0) === 0xe0) return "ucs2"; // message waiting, UCS-2
  if ((dataCoding & 0xf0) === 0xf0) return (dataCoding & 0x04) !== 0 ? "binary" : "gsm7"; // message class
  return "gsm7";
}

/** The text of joined user data; binary data is kept as hex so that nothing is lost. */
export function decodeUserData(encoding: InboundEncoding, bytes: Buffer): string {
  switch (encoding) {
    case "gsm7":
      return decodeGsm7(bytes);
    case "ucs2":
      return decodeUcs2(bytes);
    case "latin1":
      return bytes.toString("latin1");
    case "binary":
      return bytes.toString("hex");
  }
}
