// Recipients: any written form of a Zimbabwe mobile number becomes E.164 (+2637XXXXXXXX) and its
// carrier. Exports: parseMsisdn, operatorOfMobilePrefix, type Recipient.
// The carrier comes from the mobile prefix: 71 netone, 73 telecel, 77 and 78 econet. Landlines,
// other mobile ranges, other countries and garbage are refused with a reason to show the caller.
import { parsePhoneNumberWithError } from "libphonenumber-js/max";
import { z } from "zod";
import type { Operator } from "@/lib/carriers/operators";

export type Recipient = { to: string; operator: Operator };
export type MsisdnResult = { ok: true; recipient: Recipient } | { ok: false; reason: string };

const PREFIX_OPERATORS: Record<string, Operator> = { "71": "netone", "73": "telecel", "77": "econet", "78": "econet" };

/**
 * The plain forms (+263…, 263…, 0…) of numbers libphonenumber's ZW metadata calls valid mobiles on
 * our prefixes (73 excludes 730). Bulk sends parse up to 100,000 numbers per request and
 * libphonenumber costs tens of microseconds each; tests/unit/msisdn.test.ts checks the two agree.
 */
const PLAIN_MOBILE = /^(?:\+263|263|0)(7(?:[178]\d|3[1-9])\d{6})$/;

function operatorOfMobilePrefix(nationalNumber: string): Operator | undefined {
  return PREFIX_OPERATORS[nationalNumber.slice(0, 2)];
}

export function parseMsisdn(raw: string): MsisdnResult {
  const text = raw.trim();
  const plain = PLAIN_MOBILE.exec(text);
  if (plain) return { ok: true, recipient: { to: `+263${plain[1]}`, operator: operatorOfMobilePrefix(plain[1])! } };
  if (text.length === 0) return { ok: false, reason: "cannot be blank" };
  if (text.length > 32) return { ok: false, reason: `"${text.slice(0, 32)}…" is not a phone number` };
  let number;
  try {
    number = parsePhoneNumberWithError(text, { defaultCountry: "ZW", extract: false });
  } catch {
    return { ok: false, reason: `"${text}" is not a phone number` };
  }
  if (number.ext || !number.isValid()) return { ok: false, reason: `"${text}" is not a valid phone number` };
  const operator =
    number.countryCallingCode === "263" && number.getType() === "MOBILE" ? operatorOfMobilePrefix(number.nationalNumber) : undefined;
  if (!operator) {
    return { ok: false, reason: `"${text}" is not a mobile number on econet, netone or telecel (+263 71, 73, 77 or 78)` };
  }
  return { ok: true, recipient: { to: number.number, operator } };
}

/** A recipient to search by, in any written form a send accepts: read as its E.164 form, else refused with the reason. */
export const recipientQuerySchema = z.string().transform((text, context) => {
  const parsed = parseMsisdn(text);
  if (parsed.ok) return parsed.recipient.to;
  context.addIssue({ code: "custom", message: parsed.reason });
  return z.NEVER;
});
