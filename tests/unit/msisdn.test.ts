// Recipient parsing: every accepted written form becomes E.164 with its carrier; anything else is
// refused with a reason that names the number.
import fc from "fast-check";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { describe, expect, it } from "vitest";
import { parseMsisdn } from "@/lib/messages/msisdn";

describe("parseMsisdn", () => {
  it.each([
    ["+263771234567", "+263771234567", "econet"],
    ["263771234567", "+263771234567", "econet"],
    ["0771234567", "+263771234567", "econet"],
    ["0781234567", "+263781234567", "econet"],
    ["0711234567", "+263711234567", "netone"],
    ["0731234567", "+263731234567", "telecel"],
    [" +263771234567 ", "+263771234567", "econet"],
    ["+263 77 123 4567", "+263771234567", "econet"],
    ["+263 (77) 123-4567", "+263771234567", "econet"],
    ["077 123 4567", "+263771234567", "econet"],
    ["00263771234567", "+263771234567", "econet"],
  ])("accepts %s as %s on %s", (raw, to, operator) => {
    expect(parseMsisdn(raw)).toEqual({ ok: true, recipient: { to, operator } });
  });

  it.each([
    ["a Harare landline", "+263242123456", /"\+263242123456" is not a mobile number on econet, netone or telecel/],
    ["a South African mobile", "+27821234567", /"\+27821234567" is not a mobile number/],
    ["a Zimbabwe mobile range we do not serve (79)", "+263791234567", /not a mobile number/],
    ["an unallocated Telecel range (730)", "+263730234567", /not a valid phone number/],
    ["one digit short", "+26377123456", /not a valid phone number/],
    ["one digit long", "+2637712345678", /not a valid phone number/],
    ["an extension", "+263771234567 ext 5", /not a valid phone number/],
    ["trailing garbage", "0771234567x", /"0771234567x" is not a phone number/],
    ["words", "call me maybe", /"call me maybe" is not a phone number/],
    ["blank", "   ", /cannot be blank/],
  ])("refuses %s", (_case, raw, reason) => {
    const result = parseMsisdn(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it("quotes only the start of an overlong input", () => {
    const result = parseMsisdn("9".repeat(10_000));
    expect(result).toEqual({ ok: false, reason: `"${"9".repeat(32)}…" is not a phone number` });
  });

  it("agrees with libphonenumber on every Zimbabwe 7x number, in each plain form (the fast path)", () => {
    const operators: Record<string, string> = { "71": "netone", "73": "telecel", "77": "econet", "78": "econet" };
    fc.assert(
      fc.property(fc.stringMatching(/^7\d{8}$/), fc.constantFrom("+263", "263", "0"), (national, prefix) => {
        const reference = parsePhoneNumberFromString(`+263${national}`);
        const operator = reference?.isValid() && reference.getType() === "MOBILE" ? operators[national.slice(0, 2)] : undefined;
        const result = parseMsisdn(prefix + national);
        if (operator) expect(result).toEqual({ ok: true, recipient: { to: `+263${national}`, operator } });
        else expect(result.ok).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
