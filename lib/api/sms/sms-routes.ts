// The SMS endpoints (spec 4.1-4.3), and the search of an account's messages (list and CSV export).
// Handlers parse, call lib/messages, and shape the response.
import type { ApiRoute } from "@/lib/api/route";
import { ApiResponse, envelope, json, streamedEnvelope } from "@/lib/api/respond";
import { AppError } from "@/lib/errors";
import { keyActor, withApiKey, type AuthedContext } from "@/lib/api/auth/with-api-key";
import { parseJsonRequest, parseUuid } from "@/lib/api/parse-request";
import { answerKeptWithWork, withIdempotencyKeptWithWork, type IdempotencyClaim } from "@/lib/api/idempotency/with-idempotency";
import { acceptMessages } from "@/lib/messages/accept-messages";
import type { IdempotencyRecord } from "@/lib/messages/commit-sends";
import { getMessageForApiKey } from "@/lib/messages/get-message";
import { bulkCancellationSchema, sendBulkSmsRequestSchema, sendSmsRequestSchema, type SendBulkSmsRequest } from "./sms-schemas";
import { cancelBulkSend, cancelMessage, type CancelScope } from "@/lib/messages/cancel-messages";
import { serializeBulkResult } from "./serialize-bulk-result";
import { serializeSms } from "@/lib/messages/serialize-sms";
import { encodeSearchCursor, searchMessages } from "@/lib/messages/search-messages";
import { messagesCsv } from "@/lib/messages/messages-csv";
import { parseSmsSearch, smsListEnvelopeSchema } from "./sms-search-schemas";

/** 100,000 recipients of up to ~60 bytes of JSON each, plus the body. */
export const BULK_BODY_LIMIT = 8 * 1024 * 1024;
export const SMS_RETRIEVED = "SMS retrieved successfully";
export const BULK_ACCEPTED = "Bulk SMS accepted";
export const SMS_LISTED = "Messages retrieved successfully";
export const SMS_CANCELLED = "SMS cancelled";
export const BULK_CANCELLED = "Bulk SMS cancelled";

/** Both sends: the request's fields, as the key's account and actor, through the one accept function. */
function accept(
  context: AuthedContext,
  request: Omit<SendBulkSmsRequest, "to">,
  recipients: string[],
  kind: "single" | "bulk",
  idempotency: IdempotencyRecord | null,
) {
  const { keyId, accountId, mode } = context.auth;
  return acceptMessages({
    idempotency,
    accountId,
    apiKeyId: keyId,
    actor: keyActor(context.auth),
    mode,
    from: request.from,
    body: request.message,
    recipients,
    webhookUrl: request.webhook_url,
    priority: request.priority,
    sendAt: request.send_at,
    validityPeriod: request.validity_period,
    kind,
  });
}

async function sendSms(context: AuthedContext, claim: IdempotencyClaim | null): Promise<ApiResponse> {
  const request = parseJsonRequest(context, sendSmsRequestSchema);
  const answer = answerKeptWithWork(claim, (send) => json(202, serializeSms(send.messages[0])));
  return answer.respond(await accept(context, request, [request.to], "single", answer.record));
}

async function sendBulkSms(context: AuthedContext, claim: IdempotencyClaim | null): Promise<ApiResponse> {
  const request = parseJsonRequest(context, sendBulkSmsRequestSchema);
  const answer = answerKeptWithWork(claim, (send) => streamedEnvelope(202, BULK_ACCEPTED, serializeBulkResult(send)));
  return answer.respond(await accept(context, request, request.to, "bulk", answer.record));
}

function smsIdOf(context: AuthedContext): string {
  const id = parseUuid(context.params.id);
  if (!id) {
    throw new AppError("BAD_REQUEST", "Invalid SMS id", {
      description: "The SMS id must be a UUID",
      fields: [{ field: "id", description: "must be a UUID" }],
    });
  }
  return id;
}

function cancelScopeOf(context: AuthedContext): CancelScope {
  return { accountId: context.auth.accountId, test: context.auth.mode === "test" };
}

async function cancelSms(context: AuthedContext): Promise<ApiResponse> {
  const { message } = await cancelMessage(cancelScopeOf(context), smsIdOf(context));
  return envelope(200, SMS_CANCELLED, serializeSms(message));
}

async function cancelBulkSms(context: AuthedContext): Promise<ApiResponse> {
  const bulkId = parseUuid(context.params.bulk_id);
  if (!bulkId) {
    throw new AppError("BAD_REQUEST", "Invalid bulk id", {
      description: "The bulk id must be a UUID",
      fields: [{ field: "bulk_id", description: "must be a UUID" }],
    });
  }
  const result = await cancelBulkSend(cancelScopeOf(context), bulkId);
  const data = bulkCancellationSchema.parse({
    bulk_id: result.bulkSendId,
    total: result.total,
    cancelled: result.cancelled,
    not_cancelled: result.notCancelled,
  });
  return envelope(200, BULK_CANCELLED, data);
}

async function getSms(context: AuthedContext): Promise<ApiResponse> {
  const id = smsIdOf(context);
  const message = await getMessageForApiKey(context.auth.keyId, id);
  return envelope(200, SMS_RETRIEVED, serializeSms(message));
}

/** The key's own traffic: a test key searches test messages only, a live key live ones only. */
function searchOf(context: AuthedContext, options?: { paged: boolean }) {
  return parseSmsSearch(context.request.url, { accountId: context.auth.accountId, test: context.auth.mode === "test" }, options);
}

async function listSms(context: AuthedContext): Promise<ApiResponse> {
  const { search, limit, cursor } = searchOf(context);
  const page = await searchMessages(search, limit, cursor);
  const body = smsListEnvelopeSchema.parse({
    status: "success",
    message: SMS_LISTED,
    data: page.rows.map(serializeSms),
    next_cursor: page.next ? encodeSearchCursor(page.next) : null,
  });
  return json(200, body);
}

async function exportSms(context: AuthedContext): Promise<ApiResponse> {
  const { search } = searchOf(context, { paged: false });
  const day = new Date().toISOString().slice(0, 10);
  return new ApiResponse(200, messagesCsv(search), {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="tumira-messages-${day}.csv"`,
    "cache-control": "no-store",
  });
}

// The hot endpoints: each handler's own statement or transaction re-checks the key (getMessageForApiKey,
// commitSends), so the key may come from the cache and a request reads no key row of its own.
const keyRechecked = { keyRecheckedByHandler: true };

export const smsRoutes: ApiRoute[] = [
  { method: "POST", path: "/api/v1/sms", errorShape: "legacy", handler: withApiKey(withIdempotencyKeptWithWork(sendSms), keyRechecked) },
  {
    method: "POST",
    path: "/api/v1/sms/bulk",
    errorShape: "kit",
    bodyLimit: BULK_BODY_LIMIT,
    handler: withApiKey(withIdempotencyKeptWithWork(sendBulkSms), keyRechecked),
  },
  { method: "GET", path: "/api/v1/sms", errorShape: "legacy", handler: withApiKey(listSms) },
  // Before /api/v1/sms/:id, which would also match it: the first route of a method that matches answers.
  { method: "GET", path: "/api/v1/sms/export", errorShape: "legacy", handler: withApiKey(exportSms) },
  { method: "GET", path: "/api/v1/sms/:id", errorShape: "legacy", handler: withApiKey(getSms, keyRechecked) },
  { method: "POST", path: "/api/v1/sms/:id/cancel", errorShape: "legacy", handler: withApiKey(cancelSms) },
  { method: "POST", path: "/api/v1/sms/bulk/:bulk_id/cancel", errorShape: "kit", handler: withApiKey(cancelBulkSms) },
];
