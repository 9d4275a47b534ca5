// Segment counting and the GSM-7 / UCS-2 codecs: what is charged is exactly what is sent.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeGsm7, decodeUcs2, encodeGsm7, encodeUcs2, segmentMessage } from "@/lib/messages/segments";

const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM_EXTENSION = "\f^{}\\[~]|€";
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("segmentMessage", () => {
  it.each([
    ["empty", "", "gsm7", 1, 0],
    ["160 GSM characters", "a".repeat(160), "gsm7", 1, 160],
    ["161 GSM characters", "a".repeat(161), "gsm7", 2, 161],
    ["306 GSM characters (2 × 153)", "a".repeat(306), "gsm7", 2, 306],
    ["307 GSM characters", "a".repeat(307), "gsm7", 3, 307],
    ["158 + € = 160 septets", "a".repeat(158) + "€", "gsm7", 1, 160],
    ["159 + € = 161 septets", "a".repeat(159) + "€", "gsm7", 2, 161],
    ["80 extension characters = 160 septets", "{".repeat(80), "gsm7", 1, 160],
    ["70 UCS-2 characters", "ŋ".repeat(70), "ucs2", 1, 70],
    ["71 UCS-2 characters", "ŋ".repeat(71), "ucs2", 2, 71],
    ["134 UCS-2 characters (2 × 67)", "ŋ".repeat(134), "ucs2", 2, 134],
    ["135 UCS-2 characters", "ŋ".repeat(135), "ucs2", 3, 135],
    ["35 emoji = 70 units", "😀".repeat(35), "ucs2", 1, 70],
    ["36 emoji = 72 units", "😀".repeat(36), "ucs2", 2, 72],
    ["one emoji in GSM text forces UCS-2", "a".repeat(69) + "😀", "ucs2", 2, 71],
    ["Shona with ŋ", "Mhoro, makadii? Ndinotenda ŋombe", "ucs2", 1, 32],
    ["Arabic", "مرحبا بالعالم", "ucs2", 1, 13],
    ["Chinese", "你好，世界", "ucs2", 1, 5],
    ["English with € and {braces}", "Price: €5 {incl. tax}", "gsm7", 1, 24],
  ])("%s", (_case, body, encoding, segments, units) => {
    const result = segmentMessage(body);
    expect(result).toMatchObject({ encoding, segments, units });
    expect(result.parts).toHaveLength(segments);
    expect(result.parts.join("")).toBe(body);
  });

  it.each([
    ["€", "a".repeat(152) + "€" + "b".repeat(10)],
    ["{", "a".repeat(152) + "{" + "b".repeat(10)],
    ["€ at the second boundary", "a".repeat(153 + 152) + "€" + "b".repeat(10)],
  ])("never splits an escape pair (%s) across parts", (_case, body) => {
    const { parts } = segmentMessage(body);
    for (const part of parts.slice(0, -1)) expect(part.endsWith("a")).toBe(true);
    expect(parts.slice(1).some((part) => /^[€{]/.test(part))).toBe(true);
    for (const part of parts) expect(encodeGsm7(part).length).toBeLessThanOrEqual(153);
  });

  it("never splits a surrogate pair across parts", () => {
    const { parts } = segmentMessage("a".repeat(66) + "😀" + "b".repeat(10));
    expect(parts[0]).toBe("a".repeat(66));
    expect(parts[1].startsWith("😀")).toBe(true);
    for (const part of segmentMessage("😀".repeat(100)).parts) {
      expect(LONE_SURROGATE.test(part)).toBe(false);
      expect(part.length).toBeLessThanOrEqual(67);
    }
  });

  it("reports the distinct characters that forced UCS-2, in order", () => {
    expect(segmentMessage("Hello ŋ world 😀 ŋ ç").nonGsmCharacters).toEqual(["ŋ", "😀", "ç"]);
    expect(segmentMessage("Plain {GSM} €").nonGsmCharacters).toEqual([]);
  });

  it("splits any text into parts that fit, rejoin to the body, and are as few as possible", () => {
    const gsmChar = fc.constantFrom(...Array.from(GSM_BASIC + GSM_EXTENSION));
    const text = fc.oneof(fc.string({ unit: gsmChar, maxLength: 800 }), fc.string({ unit: "grapheme", maxLength: 400 }));
    fc.assert(
      fc.property(text, (body) => {
        const result = segmentMessage(body);
        expect(result.parts.join("")).toBe(body);
        expect(result.segments).toBe(result.parts.length);
        const size = (part: string) => (result.encoding === "gsm7" ? encodeGsm7(part).length : part.length);
        const limit = result.segments === 1 ? (result.encoding === "gsm7" ? 160 : 70) : result.encoding === "gsm7" ? 153 : 67;
        for (const part of result.parts) {
          expect(size(part)).toBeLessThanOrEqual(limit);
          expect(LONE_SURROGATE.test(part)).toBe(false);
        }
        // Greedy filling: no part but the last could have taken the next part's first character.
        result.parts.slice(0, -1).forEach((part, index) => {
          const next = Array.from(result.parts[index + 1])[0];
          expect(size(part + next)).toBeGreaterThan(limit);
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe("GSM-7 and UCS-2 codecs", () => {
  it("round-trips every GSM-7 basic and extension character", () => {
    const all = GSM_BASIC + GSM_EXTENSION;
    const encoded = encodeGsm7(all);
    expect(encoded.length).toBe(GSM_BASIC.length + 2 * GSM_EXTENSION.length);
    expect(decodeGsm7(encoded)).toBe(all);
    expect([...encodeGsm7("@A€")]).toEqual([0x00, 0x41, 0x1b, 0x65]);
  });

  it("refuses to encode a character GSM-7 does not have", () => {
    expect(() => encodeGsm7("ŋ")).toThrow(/no GSM-7 encoding/);
  });

  it("round-trips UCS-2 text, surrogate pairs included", () => {
    const text = "Mhoro ŋ مرحبا 你好 😀";
    expect(encodeUcs2(text).length).toBe(text.length * 2);
    expect(decodeUcs2(encodeUcs2(text))).toBe(text);
  });

  it("round-trips arbitrary GSM-7 text", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...Array.from(GSM_BASIC + GSM_EXTENSION)), maxLength: 300 }), (text) => {
        expect(decodeGsm7(encodeGsm7(text))).toBe(text);
      }),
    );
  });
});
