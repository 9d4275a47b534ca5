import { describe, expect, it } from "vitest";
import { STATUS, statusName } from "@/lib/smpp/command-status";
import { carrierName, durationWords, encodingName, explainCarrierCode, messageStatusLabel } from "@/lib/messages/vocabulary";
import { operators } from "@/lib/carriers/operators";

describe("the dashboard's vocabulary", () => {
  it("writes encodings as the GSM standards do", () => {
    expect(["gsm7", "ucs2"].map(encodingName)).toEqual(["GSM-7", "UCS-2"]);
  });

  it("calls a receipted success Delivered and never shows a stored status word", () => {
    expect(messageStatusLabel("success", "2026-01-01T00:00:00Z").label).toBe("Delivered");
    expect(messageStatusLabel("success", null).label).toBe("Sent");
    expect(messageStatusLabel("enqueued", null).label).toBe("Queued");
    expect(messageStatusLabel("created", null).label).toBe("Scheduled");
    for (const status of ["created", "enqueued", "processing", "success", "failed"]) {
      expect(messageStatusLabel(status, null).label).toMatch(/^[A-Z]/);
      expect(messageStatusLabel(status, null).label).not.toBe(status);
    }
  });

  it("says a validity period in the largest unit that divides it", () => {
    expect([60, 90, 300, 3600, 86_400, 172_800, 604_800].map(durationWords)).toEqual([
      "1 minute",
      "90 seconds",
      "5 minutes",
      "1 hour",
      "24 hours",
      "2 days",
      "7 days",
    ]);
  });

  it("spells every carrier as the carrier does", () => {
    expect(operators.map(carrierName)).toEqual(["Econet", "NetOne", "Telecel"]);
  });

  it("explains the codes the gateway acts on, from the text it stores", () => {
    expect(explainCarrierCode(`${statusName(STATUS.ESME_RINVDSTADR)} (0x0000000b)`)).toBe("The carrier says the number is not valid");
    expect(explainCarrierCode("UNDELIV")).toBe("The carrier could not deliver it to the handset");
    expect(explainCarrierCode("receipt EXPIRED err 003")).toMatch(/unreachable/);
    for (const name of Object.keys(STATUS)) expect(explainCarrierCode(name), name).not.toBeNull();
    expect(explainCarrierCode("0x00000400")).toBeNull();
    expect(explainCarrierCode("")).toBeNull();
  });
});
