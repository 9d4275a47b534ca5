import { describe, expect, it } from "vitest";
import { DEFAULT_TIME_ZONE, isTimeZone, knowsTimeZone, listTimeZones, localTimeToInstant, readLocalTime } from "@/lib/model/time-zones";

const instant = (local: string, zone: string) => localTimeToInstant(local, zone)?.toISOString() ?? null;

describe("localTimeToInstant", () => {
  it("reads a wall-clock time in a zone with one offset all year", () => {
    expect(instant("2026-12-01T08:00", "Africa/Harare")).toBe("2026-12-01T06:00:00.000Z");
    expect(instant("2026-12-01T08:00:30", "Africa/Harare")).toBe("2026-12-01T06:00:30.000Z");
    expect(instant("2026-12-01T08:00", "UTC")).toBe("2026-12-01T08:00:00.000Z");
    expect(instant("2026-12-31T23:30", "Asia/Kolkata")).toBe("2026-12-31T18:00:00.000Z");
  });

  it("follows a zone's summer time", () => {
    expect(instant("2026-01-15T09:00", "Europe/London")).toBe("2026-01-15T09:00:00.000Z");
    expect(instant("2026-07-15T09:00", "Europe/London")).toBe("2026-07-15T08:00:00.000Z");
    expect(instant("2026-07-15T09:00", "America/New_York")).toBe("2026-07-15T13:00:00.000Z");
  });

  it("reads a time the clocks skip as the same distance past the change", () => {
    // Europe/London moves from 01:00 GMT to 02:00 BST on 2026-03-29: 01:30 does not exist.
    expect(instant("2026-03-29T01:30", "Europe/London")).toBe("2026-03-29T01:30:00.000Z");
    expect(instant("2026-03-29T00:59", "Europe/London")).toBe("2026-03-29T00:59:00.000Z");
    expect(instant("2026-03-29T02:00", "Europe/London")).toBe("2026-03-29T01:00:00.000Z");
    expect(readLocalTime("2026-03-29T01:30", "Europe/London")?.reading).toBe("skipped");
    expect(readLocalTime("2026-03-29T00:59", "Europe/London")?.reading).toBe("once");
    expect(readLocalTime("2026-03-29T02:00", "Europe/London")?.reading).toBe("once");
  });

  it("reads a time the clocks repeat as its first occurrence", () => {
    // Europe/London goes back from 02:00 BST to 01:00 GMT on 2026-10-25: 01:30 happens twice.
    expect(instant("2026-10-25T01:30", "Europe/London")).toBe("2026-10-25T00:30:00.000Z");
    expect(instant("2026-10-25T02:00", "Europe/London")).toBe("2026-10-25T02:00:00.000Z");
    expect(readLocalTime("2026-10-25T01:30", "Europe/London")?.reading).toBe("repeated");
    expect(readLocalTime("2026-10-25T00:59", "Europe/London")?.reading).toBe("once");
    expect(readLocalTime("2026-10-25T02:00", "Europe/London")?.reading).toBe("once");
    // A zone with one offset all year reads every time once.
    expect(readLocalTime("2026-10-25T01:30", "Africa/Harare")?.reading).toBe("once");
  });

  it("reads zones with half-hour and quarter-hour offsets and changes", () => {
    // Lord Howe moves its clocks by half an hour: 02:00 to 02:30 on 2026-10-04, 02:00 back to 01:30 on 2026-04-05.
    expect(readLocalTime("2026-10-04T02:15", "Australia/Lord_Howe")).toEqual({
      instant: new Date("2026-10-03T15:45:00Z"),
      reading: "skipped",
    });
    expect(readLocalTime("2026-04-05T01:45", "Australia/Lord_Howe")).toEqual({
      instant: new Date("2026-04-04T14:45:00Z"),
      reading: "repeated",
    });
    // Chatham, UTC+12:45 in winter and +13:45 in summer (02:45 to 03:45 on 2026-09-27).
    expect(readLocalTime("2026-09-27T03:00", "Pacific/Chatham")).toEqual({ instant: new Date("2026-09-26T14:15:00Z"), reading: "skipped" });
    expect(instant("2026-12-01T09:00", "Pacific/Chatham")).toBe("2026-11-30T19:15:00.000Z");
    expect(instant("2026-03-08T02:30", "America/St_Johns")).toBe("2026-03-08T06:00:00.000Z");
  });

  it("reads a year below 100 as that year", () => {
    expect(instant("0050-06-01T08:00", "UTC")).toBe("0050-06-01T08:00:00.000Z");
    expect(readLocalTime("0099-06-01T08:00", "UTC")?.reading).toBe("once");
    expect(instant("9999-12-31T23:59", "Pacific/Kiritimati")).toBe("9999-12-31T09:59:00.000Z");
  });

  it("reads nothing in a zone this runtime does not know", () => {
    expect(knowsTimeZone("Africa/Harare")).toBe(true);
    expect(knowsTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(localTimeToInstant("2026-12-01T08:00", "Mars/Olympus_Mons")).toBeNull();
  });

  it("refuses what is not a wall-clock time", () => {
    for (const text of ["", "2026-12-01", "2026-12-01T08:00Z", "2026-02-30T08:00", "2026-12-01T24:00", "2026-12-01T08:60", "tomorrow"])
      expect(localTimeToInstant(text, "Africa/Harare"), text).toBeNull();
  });
});

describe("time zone names", () => {
  it("knows the default, UTC, the zones Intl lists and current names Intl knows, each spelt as IANA spells it", () => {
    expect(isTimeZone(DEFAULT_TIME_ZONE)).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Europe/London")).toBe(true);
    expect(isTimeZone("Asia/Kolkata")).toBe(true);
    expect(isTimeZone("Europe/Kyiv")).toBe(true);
    expect(isTimeZone("Etc/GMT+2")).toBe(true);
    expect(isTimeZone("africa/harare")).toBe(false);
    expect(isTimeZone("asia/kolkata")).toBe(false);
    expect(isTimeZone("Asia/KOLKATA")).toBe(false);
    expect(isTimeZone("Europe/LONDON")).toBe(false);
    expect(isTimeZone("Etc/Gmt+2")).toBe(false);
    expect(isTimeZone("US/Eastern")).toBe(false);
    expect(isTimeZone("Europe/Atlantis")).toBe(false);
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(isTimeZone("")).toBe(false);
    expect(listTimeZones()).toContain("UTC");
    expect(listTimeZones()).toContain(DEFAULT_TIME_ZONE);
  });
});
