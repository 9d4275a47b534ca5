// The keys page's list: each key with who created it (a member's email, another key, the CLI) and,
// for a rolled key, the key that replaced it (from the key.rolled audit event).
import { db } from "@/lib/db/client";
import { isKeyActive } from "@/lib/keys/list-api-keys";
import type { ViewMode } from "./view-mode";

export type KeyRow = {
  id: string;
  name: string;
  prefix: string | null;
  mode: string;
  active: boolean;
  revokedAt: string | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
  createdBy: string;
  successorId: string | null;
};

/** An actor string ("user:<id>", "key:<id>", "cli", "system") in words. */
function describeActor(actor: string | null, emails: Map<string, string>, keyNames: Map<string, string>): string {
  if (!actor) return "Unknown";
  const [kind, id] = actor.split(":", 2);
  if (kind === "user") return emails.get(id) ?? "A removed member";
  if (kind === "key") return keyNames.has(id) ? `API key “${keyNames.get(id)}”` : "An API key";
  if (kind === "cli") return "Tumira CLI";
  return "Tumira";
}

/** The account's keys of one view: live keys, or test keys. */
export async function listKeyRows(accountId: string, mode: ViewMode): Promise<KeyRow[]> {
  const [keys, users, rolls] = await Promise.all([
    db().apiKey.findMany({ where: { accountId, mode }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] }),
    db().user.findMany({ where: { accountId }, select: { id: true, email: true } }),
    db().auditEvent.findMany({ where: { accountId, action: "key.rolled" }, select: { targetId: true, data: true } }),
  ]);
  const emails = new Map(users.map((user) => [user.id, user.email]));
  const keyNames = new Map(keys.map((key) => [key.id, key.name]));
  const successors = new Map(
    rolls.map((roll) => [roll.targetId, String((JSON.parse(roll.data) as { replacement?: string }).replacement ?? "")]),
  );
  const now = new Date();
  return keys.map((key) => ({
    id: key.id,
    name: key.name,
    prefix: key.tokenPrefix,
    mode: key.mode,
    active: isKeyActive(key, now),
    revokedAt: key.revokedAt?.toISOString() ?? null,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    createdAt: key.createdAt.toISOString(),
    createdBy: describeActor(key.createdById, emails, keyNames),
    successorId: keyNames.has(successors.get(key.id) ?? "") ? successors.get(key.id)! : null,
  }));
}
