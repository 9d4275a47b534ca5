// Secrets at rest (webhook signing secrets): AES-256-GCM under a key derived from APP_SECRET.
// Stored as "v1.<iv>.<tag>.<ciphertext>" (base64url); the version lets the scheme change later.
import crypto from "node:crypto";
import { getEnv } from "@/lib/env";

const VERSION = "v1";

function encryptionKey(): Buffer {
  // HKDF separates this key from any other use of APP_SECRET.
  return Buffer.from(crypto.hkdfSync("sha256", getEnv().APP_SECRET, "tumira", "secret-at-rest:v1", 32));
}

export function encryptSecret(plaintext: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", encryptionKey(), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** Throws when the value was not made by encryptSecret under the current APP_SECRET (or was altered). */
export function decryptSecret(stored: string): string {
  const [version, iv, tag, ciphertext] = stored.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("unrecognised encrypted secret");
  const decipher = crypto.createDecipheriv("aes-256-gcm", encryptionKey(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    // GCM's own message ("unable to authenticate data") does not say what an operator must fix.
    throw new Error("a stored secret cannot be decrypted with this APP_SECRET: every process must have the APP_SECRET that encrypted it");
  }
}
