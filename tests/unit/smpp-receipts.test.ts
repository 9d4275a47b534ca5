// Delivery receipts: TLVs win, the text form is parsed leniently, ids match across bases.
import { describe, expect, it } from "vitest";
import {
  carrierIdCandidates,
  formatReceiptText,
  isDeliveryReceipt,
  parseReceiptText,
  receiptFromDeliverSm,
} from "@/lib/smpp/parse-receipt";

const TEXT = "id:1a2b3c4d sub:001 dlvrd:001 submit date:2501151230 done date:2501151231 stat:DELIVRD err:000 text:Hello";

/** A deliver_sm's fields as lib/smpp/pdu.ts decodes them. */
function deliverSm(
  esmClass: number,
  text: string,
  more: { receipted_message_id?: string; message_state?: number; message_payload?: string } = {},
) {
  const { message_payload, ...tlvs } = more;
  return {
    esm_class: esmClass,
    short_message: Buffer.from(text, "latin1"),
    ...tlvs,
    ...(message_payload === undefined ? {} : { message_payload: Buffer.from(message_payload, "latin1") }),
  };
}

describe("receipts", () => {
  it("recognises the receipt flag in esm_class and nothing else", () => {
    expect(isDeliveryReceipt(0x04)).toBe(true);
    expect(isDeliveryReceipt(0x44)).toBe(true); // with UDHI
    expect(isDeliveryReceipt(0x00)).toBe(false);
    expect(isDeliveryReceipt(0x08)).toBe(false); // SME delivery acknowledgement
    expect(receiptFromDeliverSm(deliverSm(0, TEXT))).toBeNull();
  });

  it("parses the text form, keys in any case and order", () => {
    expect(parseReceiptText(TEXT)).toEqual({ id: "1a2b3c4d", stat: "DELIVRD", err: "000", doneDate: "2501151231" });
    expect(parseReceiptText("Stat:UNDELIV ID:42 Err:001")).toMatchObject({ id: "42", stat: "UNDELIV", err: "001" });
    expect(receiptFromDeliverSm(deliverSm(4, TEXT))).toEqual({
      messageId: "1a2b3c4d",
      stat: "DELIVRD",
      err: "000",
      doneAt: new Date(Date.UTC(2025, 0, 15, 12, 31)),
    });
  });

  it("prefers receipted_message_id and message_state TLVs over the text", () => {
    const receipt = receiptFromDeliverSm(deliverSm(4, TEXT, { receipted_message_id: "ABC", message_state: 5 }));
    expect(receipt).toMatchObject({ messageId: "ABC", stat: "UNDELIV", err: "000" });
  });

  it("reads message_payload when short_message is empty, and unknown stats as UNKNOWN", () => {
    expect(receiptFromDeliverSm(deliverSm(4, "", { message_payload: "id:9 stat:WEIRD" }))).toMatchObject({
      messageId: "9",
      stat: "UNKNOWN",
    });
  });

  it("returns null for a receipt naming no message", () => {
    expect(receiptFromDeliverSm(deliverSm(4, "stat:DELIVRD"))).toBeNull();
  });

  it("matches decimal and hex forms of an id", () => {
    expect(carrierIdCandidates("439041101")).toEqual(expect.arrayContaining(["439041101", "1a2b3c4d", "1A2B3C4D"]));
    expect(carrierIdCandidates("1A2B3C4D")).toEqual(expect.arrayContaining(["1A2B3C4D", "1a2b3c4d", "439041101"]));
    expect(carrierIdCandidates("msg-7")).toEqual(["msg-7"]);
  });

  it("writes the text form the simulator sends, which parses back", () => {
    const at = new Date(Date.UTC(2025, 5, 1, 8, 30));
    const text = formatReceiptText({
      id: "ff01",
      stat: "REJECTD",
      err: "002",
      submittedAt: at,
      doneAt: at,
      text: "A message longer than twenty characters",
    });
    expect(text).toBe(
      "id:ff01 sub:001 dlvrd:000 submit date:2506010830 done date:2506010830 stat:REJECTD err:002 text:A message longer tha",
    );
    expect(receiptFromDeliverSm(deliverSm(4, text))).toMatchObject({ messageId: "ff01", stat: "REJECTD", doneAt: at });
  });
});
