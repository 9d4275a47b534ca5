// API key format: fixed prefix, 32 random base62 characters, a checksum that refuses any mistyped
// key without a database read; SHA-256 hashes compared in constant time.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { generateToken, hashesEqual, hashToken, parseToken, tokenPrefix, TOKEN_PREFIX_LENGTH } from "@/lib/keys/token";
import { authenticateApiKey } from "@/lib/api/auth/authenticate-api-key";
import { closeDatabase } from "@/lib/db/client";
import { resetEnvForTests } from "@/lib/env";
import { AppError } from "@/lib/errors";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

describe("generateToken", () => {
  it.each(["live", "test"] as const)("makes %s keys with the scanner-friendly prefix, 38 base62 characters after it", (mode) => {
    const token = generateToken(mode);
    expect(token).toMatch(new RegExp(`^tmr_${mode}_[0-9A-Za-z]{38}$`));
    expect(parseToken(token)).toEqual({ mode });
    expect(tokenPrefix(token)).toBe(token.slice(0, 12));
    expect(TOKEN_PREFIX_LENGTH).toBe(12);
  });

  it("never repeats and spreads over the whole alphabet", () => {
    const tokens = Array.from({ length: 2000 }, () => generateToken("live"));
    expect(new Set(tokens).size).toBe(tokens.length);
    const seen = new Set(tokens.flatMap((token) => [...token.slice(9, 41)]));
    expect(seen.size).toBe(62);
  });
});

describe("parseToken", () => {
  const token = generateToken("live");

  it("refuses every single-character change, anywhere in the key", () => {
    fc.assert(
      fc.property(fc.nat({ max: token.length - 1 }), fc.constantFrom(...BASE62, "_", "-", " "), (position, character) => {
        fc.pre(token[position] !== character);
        const altered = token.slice(0, position) + character + token.slice(position + 1);
        expect(parseToken(altered)).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses two swapped neighbours, truncation, extension and other prefixes", () => {
    for (let i = 9; i < token.length - 1; i++) {
      if (token[i] === token[i + 1]) continue;
      expect(parseToken(token.slice(0, i) + token[i + 1] + token[i] + token.slice(i + 2))).toBeNull();
    }
    for (const bad of [
      token.slice(0, -1),
      `${token}0`,
      token.replace("tmr_live_", "tmr_prod_"),
      token.replace("tmr_", "sk_"),
      "",
      token.toUpperCase(),
    ]) {
      expect(parseToken(bad)).toBeNull();
    }
  });

  it("refuses arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => parseToken(text) === null),
      { numRuns: 2000 },
    );
  });
});

describe("hashes", () => {
  it("stores SHA-256 hex and compares equal hashes only", () => {
    const token = generateToken("test");
    const hash = hashToken(token);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(token.slice(12));
    expect(hashesEqual(hash, hashToken(token))).toBe(true);
    expect(hashesEqual(hash, hashToken(generateToken("test")))).toBe(false);
    expect(hashesEqual(hash, hash.slice(0, 62))).toBe(false);
    expect(hashesEqual(hash, "")).toBe(false);
  });
});

describe("authenticateApiKey before the database", () => {
  // A database that cannot be reached: whatever the code asks of it fails with a connection error.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tumira-token-"));
  const saved = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR };
  process.env.DATABASE_URL = "postgresql://nobody@127.0.0.1:1/unreachable";
  process.env.DATA_DIR = dataDir;
  resetEnvForTests();

  afterAll(async () => {
    await closeDatabase();
    Object.assign(process.env, saved);
    resetEnvForTests();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const refusal = (authorization: string | null) =>
    authenticateApiKey(authorization).then(
      () => "accepted",
      (error) => (error instanceof AppError ? `${error.code}: ${error.description}` : "database consulted"),
    );

  it("refuses a missing, wrongly-schemed or malformed key without a database read", async () => {
    const token = generateToken("live");
    expect(await refusal(null)).toMatch(/^UNAUTHORIZED: Missing authentication/);
    expect(await refusal("   ")).toMatch(/^UNAUTHORIZED: Missing authentication/);
    expect(await refusal("Bearer")).toMatch(/^UNAUTHORIZED: Missing authentication/);
    expect(await refusal(`Basic ${token}`)).toMatch(/^UNAUTHORIZED: The Authorization header must be/);
    expect(await refusal(`Bearer ${token.slice(0, -1)}${token.endsWith("0") ? "1" : "0"}`)).toBe("UNAUTHORIZED: The API key is malformed");
    expect(await refusal(`Bearer tmr_live_${"a".repeat(38)}`)).toBe("UNAUTHORIZED: The API key is malformed");
  });

  it("consults the database for a well-formed key (so the refusals above really skipped it)", async () => {
    expect(await refusal(`Bearer ${generateToken("live")}`)).toBe("database consulted");
  });
});
