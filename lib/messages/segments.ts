// How a message body becomes SMS parts, shared by pricing (segments × rate) and the SMPP encoder
// (one submit_sm per part), so what is charged is exactly what is sent.
// GSM-7 (3GPP TS 23.038): basic table 1 septet, extension table 2 (escape + char); 160 septets
// single, 153 per concatenated part. Anything else: UCS-2, 70 code units single, 67 per part,
// characters outside the BMP counting 2. Neither an escape pair nor a surrogate pair is split.

export type Encoding = "gsm7" | "ucs2";

export type Segmented = {
  encoding: Encoding;
  /** Text of each part, in order. */
  parts: string[];
  segments: number;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) of the whole body. */
  units: number;
  /** Characters that forced UCS-2 (distinct, in order of appearance); empty for GSM-7. */
  nonGsmCharacters: string[];
};

/** Longest body, in parts, that Tumira accepts (docs/api.md, Sending messages). */
export const MAX_SEGMENTS = 10;

const GSM7_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM7_EXTENSION: Record<string, number> = {
  "\f": 0x0a,
  "^": 0x14,
  "{": 0x28,
  "}": 0x29,
  "\\": 0x2f,
  "[": 0x3c,
  "~": 0x3d,
  "]": 0x3e,
  "|": 0x40,
  "€": 0x65,
};
const ESCAPE = 0x1b;

const basicIndex = new Map<string, number>();
for (let i = 0; i < GSM7_BASIC.length; i++) if (i !== ESCAPE) basicIndex.set(GSM7_BASIC[i], i);

const LIMITS = {
  gsm7: { single: 160, part: 153 },
  ucs2: { single: 70, part: 67 },
} as const;

/** Septets of one character in GSM-7, or 0 when it has none. */
function gsmSeptets(char: string): number {
  if (basicIndex.has(char)) return 1;
  if (char in GSM7_EXTENSION) return 2;
  return 0;
}

export function segmentMessage(body: string): Segmented {
  const characters = Array.from(body);
  const nonGsmCharacters = [...new Set(characters.filter((char) => gsmSeptets(char) === 0))];
  const encoding: Encoding = nonGsmCharacters.length === 0 ? "gsm7" : "ucs2";
  const size = (char: string) => (encoding === "gsm7" ? gsmSeptets(char) : char.length);
  const units = characters.reduce((total, char) => total + size(char), 0);
  const limits = LIMITS[encoding];
  if (units <= limits.single) {
    return { encoding, parts: [body], segments: 1, units, nonGsmCharacters };
  }
  const parts: string[] = [];
  let current = "";
  let currentUnits = 0;
  for (const char of characters) {
    const charUnits = size(char);
    if (currentUnits + charUnits > limits.part) {
      parts.push(current);
      current = "";
      currentUnits = 0;
    }
    current += char;
    currentUnits += charUnits;
  }
  parts.push(current);
  return { encoding, parts, segments: parts.length, units, nonGsmCharacters };
}

/** GSM-7 septets, one per byte (unpacked, as SMPP's data_coding 0 carries them). */
export function encodeGsm7(text: string): Buffer {
  const bytes: number[] = [];
  for (const char of text) {
    const basic = basicIndex.get(char);
    if (basic !== undefined) {
      bytes.push(basic);
      continue;
    }
    const extension = GSM7_EXTENSION[char];
    if (extension === undefined) throw new Error(`character U+${char.codePointAt(0)!.toString(16)} has no GSM-7 encoding`);
    bytes.push(ESCAPE, extension);
  }
  return Buffer.from(bytes);
}

export function decodeGsm7(bytes: Buffer): string {
  let text = "";
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === ESCAPE && i + 1 < bytes.length) {
      const code = bytes[++i];
      text += Object.keys(GSM7_EXTENSION).find((char) => GSM7_EXTENSION[char] === code) ?? " ";
    } else {
      text += GSM7_BASIC[bytes[i]] ?? "?";
    }
  }
  return text;
}

/** UCS-2 as UTF-16 big-endian (surrogate pairs kept, as carriers accept them). */
export function encodeUcs2(text: string): Buffer {
  const buffer = Buffer.alloc(text.length * 2);
  for (let i = 0; i < text.length; i++) buffer.writeUInt16BE(text.charCodeAt(i), i * 2);
  return buffer;
}

export function decodeUcs2(bytes: Buffer): string {
  let text = "";
  for (let i = 0; i + 1 < bytes.length; i += 2) text += String.fromCharCode(bytes.readUInt16BE(i));
  return text;
}
