// API key format: tmr_<mode>_<32 base62 random><6 base62 CRC-32 checksum>.
// The fixed prefix lets secret scanners find leaked keys; the checksum lets a mistyped or made-up key
// be refused without a database lookup. Only SHA-256(key) is stored; the first 12 characters are kept
// as the displayable prefix, which cannot authenticate.
import crypto from "node:crypto";
import zlib from "node:zlib";

export const keyModes = ["live", "test"] as const;
export type KeyMode = (typeof keyModes)[number];

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const TOKEN_PREFIX_LENGTH = 12;
const TOKEN_PATTERN = /^tmr_(live|test)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

function toBase62(value: number, length: number): string {
  let text = "";
  let rest = value;
  for (let i = 0; i < length; i++) {
    text = ALPHABET[rest % 62] + text;
    rest = Math.floor(rest / 62);
  }
  return text;
}

function randomBase62(length: number): string {
  // Rejection sampling keeps every character uniform (256 is not a multiple of 62).
  let text = "";
  while (text.length < length) {
    for (const byte of crypto.randomBytes(length)) {
      if (byte < 248 && text.length < length) text += ALPHABET[byte % 62];
    }
  }
  return text;
}

function checksum(body: string): string {
  return toBase62(zlib.crc32(body), CHECKSUM_LENGTH);
}

export function generateToken(mode: KeyMode): string {
  const body = `tmr_${mode}_${randomBase62(RANDOM_LENGTH)}`;
  return body + checksum(body);
}

/** The key's mode when it is well formed and its checksum matches, else null. */
export function parseToken(token: string): { mode: KeyMode } | null {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const body = token.slice(0, token.length - CHECKSUM_LENGTH);
  if (checksum(body) !== match[3]) return null;
  return { mode: match[1] as KeyMode };
}

export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

export function tokenPrefix(token: string): string {
  return token.slice(0, TOKEN_PREFIX_LENGTH);
}

export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
