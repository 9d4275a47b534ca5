// One message with everything the detail page shows: the Sms fields, its timeline, parts and
// receipts, the ledger rows of its charge, and its webhook deliveries with every attempt.
// Account users see their own account's messages only (another's reads as not found); platform
// staff see any message but not its body or webhook URLs (customer content), nor the hosts and
// addresses its webhook errors name.
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { serializeSms } from "@/lib/messages/serialize-sms";
import { buildMessageTimeline } from "@/lib/messages/message-timeline";
import { isCancellable } from "@/lib/messages/cancel-messages";
import { messageDetailSchema, type MessageDetail } from "./message-schemas";

/** An account user's messages of one view (test-key or live), or platform staff's: any. */
export type MessageScope = { accountId: string; test: boolean } | { platform: true };

const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * A webhook attempt's error as platform staff read it. Connection and refusal errors name the host,
 * address or port of the customer's URL ("connect ECONNREFUSED 10.1.2.3:8443", "host hooks.example
 * could not be resolved"), so staff get the status or the error's code only.
 */
function deliveryErrorForStaff(error: string | null): string | null {
  if (error === null || /^HTTP \d{3}$/.test(error) || /^no response within \d+ ms$/.test(error)) return error;
  if (error.startsWith("refused:")) return "refused: the URL is not allowed";
  return /\bE[A-Z0-9_]{3,}\b/.exec(error)?.[0] ?? "connection failed";
}

export async function getMessageDetail(id: string, scope: MessageScope): Promise<MessageDetail> {
  const accountId = "accountId" in scope ? scope.accountId : undefined;
  const message = await db().message.findFirst({
    where: { id, ...("accountId" in scope ? { accountId: scope.accountId, test: scope.test } : {}) },
    include: {
      account: { select: { id: true, name: true } },
      events: { orderBy: { id: "asc" } },
      parts: { orderBy: { partNumber: "asc" } },
      ledger: { orderBy: { id: "asc" } },
      webhooks: { orderBy: { createdAt: "asc" }, include: { attemptLog: { orderBy: { id: "asc" } } } },
    },
  });
  if (!message) throw AppError.notFound("Message");
  const staff = !accountId;
  return messageDetailSchema.parse({
    sms: { ...serializeSms(message), message: staff ? null : message.body },
    account: message.account,
    bulkSendId: message.bulkSendId,
    encoding: message.encoding,
    segments: message.segments,
    test: message.test,
    attempts: message.attempts,
    lastError: message.lastError,
    source: message.apiKeyId ? "API" : message.userId ? "Dashboard" : "Unknown",
    dispatchedAt: iso(message.dispatchedAt),
    finishedAt: iso(message.finishedAt),
    expiresAt: iso(message.expiresAt),
    cancellable: isCancellable(message),
    events: buildMessageTimeline(message, message.parts, message.events).map((event) => ({
      ...event,
      createdAt: event.createdAt.toISOString(),
    })),
    parts: message.parts.map((part) => ({
      partNumber: part.partNumber,
      carrierMessageId: part.carrierMessageId,
      status: part.status,
      receiptStat: part.receiptStat,
      receiptError: part.receiptError,
      receiptAt: iso(part.receiptAt),
    })),
    ledger: message.ledger.map((entry) => ({
      id: entry.id,
      kind: entry.kind,
      amount: entry.amount.toString(),
      balanceAfter: entry.balanceAfter.toString(),
      createdAt: entry.createdAt.toISOString(),
    })),
    webhooks: message.webhooks.map((delivery) => ({
      id: delivery.id,
      url: staff ? null : delivery.url,
      eventType: delivery.eventType,
      status: delivery.status,
      attempts: delivery.attempts,
      lastStatusCode: delivery.lastStatusCode,
      lastError: staff ? deliveryErrorForStaff(delivery.lastError) : delivery.lastError,
      nextAttemptAt: delivery.nextAttemptAt.toISOString(),
      attemptLog: delivery.attemptLog.map((attempt) => ({
        id: attempt.id,
        statusCode: attempt.statusCode,
        latencyMs: attempt.latencyMs,
        error: staff ? deliveryErrorForStaff(attempt.error) : attempt.error,
        attemptedAt: attempt.attemptedAt.toISOString(),
      })),
    })),
  });
}
