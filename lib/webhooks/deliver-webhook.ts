// One attempt of one webhook delivery, and its record: a WebhookAttempt row (status, latency,
// error) and the delivery's next state. 2xx: succeeded. 410 Gone: abandoned, with every other
// pending delivery of the account to that URL that no sender holds; one being attempted records its
// own answer (and two records never lock each other's rows). A URL that now resolves to a refused address:
// abandoned. Anything else (other status, timeout, connection error, redirect): tried again on the
// schedule, then failed.
import { Webhook } from "standardwebhooks";
import { sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { isAppError } from "@/lib/errors";
import { metrics } from "@/lib/metrics";
import { checkWebhookUrl } from "./check-webhook-url";
import type { WebhookDeliveryRow } from "./claim-webhook-deliveries";
import { postWebhook } from "./post-webhook";
import { getWebhookSecret } from "./webhook-secret";
import { endpointSigningSecrets } from "./webhook-endpoints";

/** Waits after attempts 1…7 (Standard Webhooks' suggestion): 8 attempts over about 27 hours. */
export const WEBHOOK_RETRY_SCHEDULE_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 5 * 3600_000, 10 * 3600_000, 10 * 3600_000];
export const WEBHOOK_TIMEOUT_MS = 5_000;

export type WebhookAttemptOptions = { retryScheduleMs: number[]; timeoutMs: number };

type AttemptResult = { statusCode: number | null; error: string | null; refused: boolean; latencyMs: number };

export async function deliverWebhook(delivery: WebhookDeliveryRow, options: WebhookAttemptOptions): Promise<void> {
  const result = await attempt(delivery, options.timeoutMs);
  await recordAttempt(delivery, result, options.retryScheduleMs);
}

async function attempt(delivery: WebhookDeliveryRow, timeoutMs: number): Promise<AttemptResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    // Checked again at each attempt: the host's addresses may have changed since the send.
    const target = await checkWebhookUrl(delivery.url);
    // An endpoint signs with its own secret, and during a rotation's grace period with the old one too.
    const secrets = delivery.endpointId ? await endpointSigningSecrets(delivery.endpointId) : [await getWebhookSecret(delivery.accountId)];
    const timestamp = new Date();
    const headers = {
      "webhook-id": delivery.id,
      "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
      "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(delivery.id, timestamp, delivery.payload)).join(" "),
    };
    const statusCode = await postWebhook(target, delivery.payload, headers, timeoutMs);
    return { statusCode, error: statusCode >= 200 && statusCode < 300 ? null : `HTTP ${statusCode}`, refused: false, latencyMs: latency() };
  } catch (error) {
    if (isAppError(error))
      return {
        statusCode: null,
        error: `refused: ${error.options.fields?.[0]?.description ?? error.message}`,
        refused: true,
        latencyMs: latency(),
      };
    return { statusCode: null, error: (error as Error).message || String(error), refused: false, latencyMs: latency() };
  }
}

async function recordAttempt(delivery: WebhookDeliveryRow, result: AttemptResult, schedule: number[]): Promise<void> {
  const now = new Date();
  const at = toDbTime(now);
  const attempts = delivery.attempts + 1;
  const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const gone = result.statusCode === 410;
  const retryIn = schedule[attempts - 1];
  const status = succeeded ? "succeeded" : gone || result.refused ? "abandoned" : retryIn === undefined ? "failed" : "pending";
  const nextAttemptAt = status === "pending" ? new Date(now.getTime() + Math.round(retryIn * (0.9 + Math.random() * 0.2))) : now;
  await sql().transaction(async (tx) => {
    await tx.run(`INSERT INTO "WebhookAttempt" ("deliveryId", "statusCode", "latencyMs", "error", "attemptedAt") VALUES (?, ?, ?, ?, ?)`, [
      delivery.id,
      result.statusCode,
      result.latencyMs,
      result.error,
      at,
    ]);
    await tx.run(
      `UPDATE "WebhookDelivery" SET "status" = ?, "attempts" = ?, "nextAttemptAt" = ?, "leaseUntil" = NULL, "lastStatusCode" = ?, "lastError" = ?, "updatedAt" = ? WHERE "id" = ?`,
      [status, attempts, toDbTime(nextAttemptAt), result.statusCode, result.error, at, delivery.id],
    );
    if (gone) {
      await tx.run(
        `UPDATE "WebhookDelivery" SET "status" = 'abandoned', "lastError" = ?, "updatedAt" = ?
         WHERE "accountId" = ? AND "url" = ? AND "status" = 'pending' AND "id" <> ? AND ("leaseUntil" IS NULL OR "leaseUntil" < ?)`,
        ["the endpoint answered 410 Gone to another delivery", at, delivery.accountId, delivery.url, delivery.id, at],
      );
    }
  });
  metrics().webhookAttempts.inc({ result: succeeded ? "success" : gone ? "gone" : result.refused ? "refused" : "failure" });
}
