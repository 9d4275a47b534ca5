// Each account's Standard Webhooks signing secret ("whsec_" + base64 of 24 random bytes), made on
// first need and kept encrypted in Account.webhookSecretEnc. Owners reveal and rotate it in the
// dashboard; a rotation takes effect for the next attempt of every pending delivery.
import crypto from "node:crypto";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { decryptSecret, encryptSecret } from "@/lib/crypto";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

function generateWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString("base64")}`;
}

/** The account's signing secret, created (once, even under concurrent calls) when it has none. */
export async function getWebhookSecret(accountId: string): Promise<string> {
  const account = await db().account.findUnique({ where: { id: accountId }, select: { webhookSecretEnc: true } });
  if (!account) throw AppError.notFound("Account");
  if (account.webhookSecretEnc) return decryptSecret(account.webhookSecretEnc);
  // Only the first writer wins; a concurrent caller reads the winner's secret.
  await db().account.updateMany({
    where: { id: accountId, webhookSecretEnc: null },
    data: { webhookSecretEnc: encryptSecret(generateWebhookSecret()) },
  });
  const stored = await db().account.findUniqueOrThrow({ where: { id: accountId }, select: { webhookSecretEnc: true } });
  return decryptSecret(stored.webhookSecretEnc!);
}

/** The secret as shown to an owner who asks for it: each reveal is an audit event. */
export async function revealWebhookSecret(accountId: string, actor: string): Promise<string> {
  const secret = await getWebhookSecret(accountId);
  await recordAuditEvent({ accountId, actor, action: "webhook_secret.revealed", targetType: "account", targetId: accountId });
  return secret;
}

/** Replaces the secret; returns the new one. The old one stops signing at once. */
export async function rotateWebhookSecret(accountId: string, actor: string): Promise<string> {
  const secret = generateWebhookSecret();
  const updated = await db().account.updateMany({ where: { id: accountId }, data: { webhookSecretEnc: encryptSecret(secret) } });
  if (updated.count === 0) throw AppError.notFound("Account");
  await recordAuditEvent({ accountId, actor, action: "webhook_secret.rotated", targetType: "account", targetId: accountId });
  return secret;
}
