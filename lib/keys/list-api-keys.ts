import { db } from "@/lib/db/client";
import type { KeyMode } from "./token";

export type ApiKeyRecord = {
  id: string;
  name: string;
  tokenPrefix: string | null;
  accountId: string;
  mode: string;
  active: boolean;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
  updatedAt: Date | null;
};

/** A rolled key whose grace period has passed reads as inactive. */
export function isKeyActive(key: Pick<ApiKeyRecord, "active" | "expiresAt">, now = new Date()): boolean {
  return key.active && (!key.expiresAt || key.expiresAt.getTime() > now.getTime());
}

/** The account's keys, newest first; with `mode`, only keys of that mode (a test key sees test keys). */
export async function listApiKeys(accountId: string, mode?: KeyMode): Promise<ApiKeyRecord[]> {
  const keys = await db().apiKey.findMany({
    where: { accountId, mode },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    select: {
      id: true,
      name: true,
      tokenPrefix: true,
      accountId: true,
      mode: true,
      active: true,
      expiresAt: true,
      revokedAt: true,
      lastUsedAt: true,
      createdAt: true,
      updatedAt: true,
    },
  });
  const now = new Date();
  return keys.map((key) => ({ ...key, active: isKeyActive(key, now) }));
}
