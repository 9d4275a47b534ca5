// RFC 3339 as clients write it: zones, either case of T and Z, a space for the T, fractions; and no
// date or time that a calendar or a clock does not have.
import { describe, expect, it } from "vitest";
import { parseRfc3339 } from "@/lib/model/rfc3339";

describe("parseRfc3339", () => {
  it.each([
    ["2030-01-31T09:00:00Z", "2030-01-31T09:00:00.000Z"],
    ["2030-01-31t09:00:00z", "2030-01-31T09:00:00.000Z"],
    ["2030-01-31 09:00:00Z", "2030-01-31T09:00:00.000Z"],
    ["2030-01-31T09:00:00.123456+02:00", "2030-01-31T07:00:00.123Z"],
    ["2030-01-31T09:00:00-00:30", "2030-01-31T09:30:00.000Z"],
    ["2028-02-29T00:00:00Z", "2028-02-29T00:00:00.000Z"],
    ["2000-02-29T00:00:00Z", "2000-02-29T00:00:00.000Z"],
  ])("reads %s as %s", (text, iso) => {
    expect(parseRfc3339(text)?.toISOString()).toBe(iso);
  });

  it.each([
    "2030-01-31T09:00:00",
    "2030-01-31",
    "2030-01-31T09:00Z",
    "2030-11-31T09:00:00Z",
    "2029-02-29T00:00:00Z",
    "2100-02-29T00:00:00Z",
    "2030-01-31T24:00:00Z",
    "2030-01-31T09:60:00Z",
    "2030-01-31T09:00:60Z",
    "2030-01-31T09:00:00+24:00",
    "2030-01-31T09:00:00 02:00",
    "tomorrow",
  ])("refuses %s", (text) => {
    expect(parseRfc3339(text)).toBeNull();
  });
});
