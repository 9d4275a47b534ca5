import { describe, expect, it } from "vitest";
import { encodeGsm7, encodeUcs2 } from "@/lib/messages/segments";
import { decodePdu, encodeShortMessage, COMMAND, type ShortMessageFields } from "@/lib/smpp/pdu";
import { decodeUserData, encodingOfDataCoding, isMobileOriginated, mobileOriginatedFromDeliverSm } from "@/lib/smpp/mobile-originated";

function fields(extra: Partial<ShortMessageFields>): ShortMessageFields {
  return {
    source_addr_ton: 1,
    source_addr_npi: 1,
    source_addr: "263771234567",
    dest_addr_ton: 1,
    dest_addr_npi: 1,
    destination_addr: "34567",
    esm_class: 0,
    data_coding: 0,
    short_message: Buffer.alloc(0),
    ...extra,
  };
}

describe("mobile-originated deliver_sm", () => {
  it("tells a mobile-originated message from a receipt by esm_class", () => {
    expect(isMobileOriginated(fields({ esm_class: 0 }))).toBe(true);
    expect(isMobileOriginated(fields({ esm_class: 0x40 }))).toBe(true);
    expect(isMobileOriginated(fields({ esm_class: 0x04 }))).toBe(false);
    expect(isMobileOriginated(fields({ esm_class: 0x08 }))).toBe(false);
  });

  it("decodes GSM-7 with the extension table, UCS-2 and Latin-1", () => {
    expect(decodeUserData("gsm7", encodeGsm7("€10 [ok] ^_^"))).toBe("€10 [ok] ^_^");
    expect(decodeUserData("ucs2", encodeUcs2("Salibonani 😀"))).toBe("Salibonani 😀");
    expect(decodeUserData("latin1", Buffer.from("café", "latin1"))).toBe("café");
    expect(decodeUserData("binary", Buffer.from([0xde, 0xad]))).toBe("dead");
  });

  it("reads the alphabet of each data_coding", () => {
    expect([0x00, 0x01, 0x02, 0x03, 0x04, 0x08].map(encodingOfDataCoding)).toEqual([
      "gsm7",
      "latin1",
      "binary",
      "latin1",
      "binary",
      "ucs2",
    ]);
    expect([0x10, 0x14, 0x18, 0xf0, 0xf4, 0xe0, 0xc0, 0x77].map(encodingOfDataCoding)).toEqual([
      "gsm7",
      "binary",
      "ucs2",
      "gsm7",
      "binary",
      "ucs2",
      "gsm7",
      "gsm7",
    ]);
  });

  it("reads 8- and 16-bit concatenation UDHs and strips them from the payload", () => {
    const eight = mobileOriginatedFromDeliverSm(fields({ esm_class: 0x40, short_message: Buffer.from([5, 0, 3, 42, 3, 2, 0x41]) }));
    expect(eight.part).toEqual({ reference: 42, total: 3, number: 2 });
    expect(eight.payload).toEqual(Buffer.from([0x41]));
    const sixteen = mobileOriginatedFromDeliverSm(
      fields({ esm_class: 0x40, short_message: Buffer.from([6, 8, 4, 0x01, 0x02, 2, 1, 0x42]) }),
    );
    expect(sixteen.part).toEqual({ reference: 0x0102, total: 2, number: 1 });
    expect(sixteen.payload).toEqual(Buffer.from([0x42]));
    // Another information element before the concatenation one.
    const other = mobileOriginatedFromDeliverSm(
      fields({ esm_class: 0x40, short_message: Buffer.from([9, 0x24, 1, 0, 0, 3, 7, 2, 2, 0x43]) }),
    );
    expect(other.part).toEqual({ reference: 7, total: 2, number: 2 });
  });

  it("reads SAR TLVs through the PDU codec, and takes message_payload when short_message is empty", () => {
    const wire = encodeShortMessage(
      COMMAND.deliver_sm,
      7,
      fields({ message_payload: Buffer.from("long text"), sar_msg_ref_num: 513, sar_total_segments: 4, sar_segment_seqnum: 3 }),
    );
    const mo = mobileOriginatedFromDeliverSm(decodePdu(wire).message!);
    expect(mo.part).toEqual({ reference: 513, total: 4, number: 3 });
    expect(mo.payload.toString()).toBe("long text");
  });

  it("treats a part 1 of 1 as a whole message, and gives the same PDU the same identity", () => {
    const one = fields({ esm_class: 0x40, short_message: Buffer.from([5, 0, 3, 1, 1, 1, 0x41]) });
    expect(mobileOriginatedFromDeliverSm(one).part).toBeNull();
    expect(mobileOriginatedFromDeliverSm(one).identity).toBe(mobileOriginatedFromDeliverSm({ ...one }).identity);
    expect(mobileOriginatedFromDeliverSm(fields({ short_message: Buffer.from("a") })).identity).not.toBe(
      mobileOriginatedFromDeliverSm(fields({ short_message: Buffer.from("b") })).identity,
    );
  });
});
