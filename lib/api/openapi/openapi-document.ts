// The OpenAPI 3.1 document of the public API, generated from the zod schemas the endpoints parse and
// serialise with, and from the route tables (paths, methods, error shapes): what is documented is
// what runs. Served at GET /api/v1/openapi.json; the dashboard renders it.
import { z } from "zod";
import { SMALL_BODY_LIMIT, type ApiRoute } from "@/lib/api/route";
import type { ErrorShape } from "@/lib/api/respond";
import { bareEnvelopeSchema, envelopeSchema, fieldErrorSchema, kitErrorSchema, legacyErrorSchema } from "@/lib/api/response-schemas";
import { smsRoutes } from "@/lib/api/sms/sms-routes";
import {
  bulkCancellationSchema,
  bulkSmsItemSchema,
  bulkSmsResultSchema,
  optedOutRecipientSchema,
  sendBulkSmsRequestSchema,
  sendSmsRequestSchema,
} from "@/lib/api/sms/sms-schemas";
import { smsSchema } from "@/lib/messages/serialize-sms";
import { MESSAGE_CSV_COLUMNS } from "@/lib/messages/messages-csv";
import { smsExportQuerySchema, smsListEnvelopeSchema, smsSearchQuerySchema } from "@/lib/api/sms/sms-search-schemas";
import { keyRoutes } from "@/lib/api/keys/key-routes";
import { apiKeyCreatedSchema, apiKeyListEntrySchema, createApiKeyRequestSchema } from "@/lib/keys/key-schemas";
import { accountRoutes } from "@/lib/api/accounts/account-routes";
import { balanceSchema, createSenderIdRequestSchema, senderIdSchema } from "@/lib/api/accounts/account-schemas";
import { optOutRoutes } from "@/lib/api/opt-outs/opt-out-routes";
import { addOptOutRequestSchema, optOutListQuerySchema, optOutPageSchema, optOutSchema } from "@/lib/api/opt-outs/opt-out-schemas";
import { webhookRoutes } from "@/lib/api/webhooks/webhook-routes";
import {
  createWebhookEndpointRequestSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from "@/lib/api/webhooks/webhook-schemas";
import { inboundRoutes } from "@/lib/api/inbound/inbound-routes";
import {
  inboundListEnvelopeSchema,
  inboundSearchQuerySchema,
  simulatedInboundSchema,
  simulateInboundRequestSchema,
} from "@/lib/api/inbound/inbound-schemas";
import { inboundMessageSchema } from "@/lib/inbound/serialize-inbound";

export const OPENAPI_PATH = "/api/v1/openapi.json";
const COMPONENT_REF = "#/components/schemas/";

/** Response bodies: every schema with an id becomes a component; envelopes get ids of their own here. */
const responseComponents: Record<string, z.ZodType> = {
  FieldError: fieldErrorSchema,
  KitError: kitErrorSchema,
  LegacyError: legacyErrorSchema,
  StatusEnvelope: bareEnvelopeSchema,
  Sms: smsSchema,
  SmsEnvelope: envelopeSchema(smsSchema),
  SmsListEnvelope: smsListEnvelopeSchema,
  BulkSmsItem: bulkSmsItemSchema,
  OptedOutRecipient: optedOutRecipientSchema,
  BulkSmsResult: bulkSmsResultSchema,
  BulkSmsEnvelope: envelopeSchema(bulkSmsResultSchema),
  BulkCancellation: bulkCancellationSchema,
  BulkCancellationEnvelope: envelopeSchema(bulkCancellationSchema),
  ApiKeyCreated: apiKeyCreatedSchema,
  ApiKeyCreatedEnvelope: envelopeSchema(apiKeyCreatedSchema),
  ApiKeyListEntry: apiKeyListEntrySchema,
  ApiKeyListEnvelope: envelopeSchema(z.array(apiKeyListEntrySchema)),
  Balance: balanceSchema,
  BalanceEnvelope: envelopeSchema(balanceSchema),
  SenderId: senderIdSchema,
  SenderIdEnvelope: envelopeSchema(senderIdSchema),
  SenderIdListEnvelope: envelopeSchema(z.array(senderIdSchema)),
  OptOut: optOutSchema,
  OptOutEnvelope: envelopeSchema(optOutSchema),
  OptOutPage: optOutPageSchema,
  OptOutPageEnvelope: envelopeSchema(optOutPageSchema),
  WebhookEndpoint: webhookEndpointSchema,
  WebhookEndpointWithSecret: webhookEndpointWithSecretSchema,
  WebhookEndpointWithSecretEnvelope: envelopeSchema(webhookEndpointWithSecretSchema),
  WebhookEndpointListEnvelope: envelopeSchema(z.array(webhookEndpointSchema)),
  InboundMessage: inboundMessageSchema,
  InboundMessageEnvelope: envelopeSchema(inboundMessageSchema),
  InboundListEnvelope: inboundListEnvelopeSchema,
  SimulatedInbound: simulatedInboundSchema,
  SimulatedInboundEnvelope: envelopeSchema(simulatedInboundSchema),
};

/** Request bodies, described as clients may send them (unknown fields are ignored, not refused). */
const requestComponents: Record<string, z.ZodType> = {
  SendSmsRequest: sendSmsRequestSchema,
  SendBulkSmsRequest: sendBulkSmsRequestSchema,
  CreateApiKeyRequest: createApiKeyRequestSchema,
  CreateSenderIdRequest: createSenderIdRequestSchema,
  AddOptOutRequest: addOptOutRequestSchema,
  CreateWebhookEndpointRequest: createWebhookEndpointRequestSchema,
  SimulateInboundRequest: simulateInboundRequestSchema,
};

type ComponentName = keyof typeof responseComponents | keyof typeof requestComponents;

type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  tag: "SMS" | "API keys" | "Account" | "Opt-outs" | "Webhooks" | "Inbound";
  request?: ComponentName;
  /** Query string parameters, one per field of the schema (all optional). */
  query?: { schema: z.ZodObject };
  /** Accepts an Idempotency-Key header. */
  idempotent?: boolean;
  success: { status: number; description: string; body: ComponentName | { csv: readonly string[] } };
  /** A second success answer (an idempotent add of what exists). */
  alsoSuccess?: { status: number; description: string; body: ComponentName };
  /** Error statuses besides 401, 413 and 429 (every authenticated endpoint has those). */
  errors: Record<number, string>;
};

const IDEMPOTENCY_ERRORS = {
  409: "A request with the same Idempotency-Key is still in progress (retry after the Retry-After seconds), or never answered (no Retry-After: its outcome is unknown; check before sending again with a new key)",
};

const OWNERS_KEY_ONLY =
  "A test key, or a live key no current owner of the account stands behind (one a developer created, or whose creating owner was removed or became a developer)";

/** Documentation of each route, by "METHOD path" as in the route tables. */
const operations: Record<string, Operation> = {
  "POST /api/v1/sms": {
    operationId: "sendSms",
    summary: "Send an SMS",
    description:
      "Prices the message, holds its charge against the prepaid balance and queues it. The answer is the bare Sms object, without an envelope.",
    tag: "SMS",
    request: "SendSmsRequest",
    idempotent: true,
    success: { status: 202, description: "Accepted, priced and queued; not yet delivered", body: "Sms" },
    errors: {
      400: "Malformed JSON, a field missing or invalid, or `from` is not an approved sender id of the account",
      ...IDEMPOTENCY_ERRORS,
      422: "The balance does not cover the charge, the recipient is on the account's opt-out list (`error.type` `ERR_RECIPIENT_OPTED_OUT`, nothing sent or charged), or the Idempotency-Key was used for a different request",
    },
  },
  "POST /api/v1/sms/bulk": {
    operationId: "sendBulkSms",
    summary: "Send an SMS to many recipients",
    description:
      "All or nothing: every recipient is validated and priced, and the whole charge is held at once, or nothing is created. Recipients on the account's opt-out list are skipped, not charged, and listed in `opted_out`.",
    tag: "SMS",
    request: "SendBulkSmsRequest",
    idempotent: true,
    success: { status: 202, description: "Every recipient accepted and priced", body: "BulkSmsEnvelope" },
    errors: {
      400: "A field missing or invalid; `validation_errors` names each (e.g. `to[3]`)",
      ...IDEMPOTENCY_ERRORS,
      422: "The balance does not cover the whole send (nothing was created or held), every recipient is on the opt-out list (`RECIPIENT_OPTED_OUT`), or the Idempotency-Key was used for a different request",
    },
  },
  "GET /api/v1/sms/:id": {
    operationId: "getSms",
    summary: "Get an SMS",
    tag: "SMS",
    success: { status: 200, description: "The message", body: "SmsEnvelope" },
    errors: { 400: "The id is not a UUID", 404: "No message with this id on the caller's account" },
  },
  "POST /api/v1/sms/:id/cancel": {
    operationId: "cancelSms",
    summary: "Cancel an SMS",
    description:
      "A message not yet handed to a carrier (status created or enqueued) ends failed with operator_response CANCELLED and its " +
      "hold refunded. Cancelling it again answers the same. A message a carrier already has, or may have (enqueued again after a " +
      "submit of it got no clear answer), is not cancelled: 409, and nothing changes.",
    tag: "SMS",
    success: { status: 200, description: "The message, cancelled", body: "SmsEnvelope" },
    errors: {
      400: "The id is not a UUID",
      404: "No message with this id on the caller's account",
      409: "The message was already handed to a carrier, may be with one, or ended otherwise (the description says which); nothing changed",
    },
  },
  "POST /api/v1/sms/bulk/:bulk_id/cancel": {
    operationId: "cancelBulkSms",
    summary: "Cancel a bulk send",
    description:
      "Cancels every message of the bulk send not yet handed to a carrier, as the single cancel does, and counts them; " +
      "messages a carrier already has, or may have, are left alone.",
    tag: "SMS",
    success: { status: 200, description: "What this request cancelled", body: "BulkCancellationEnvelope" },
    errors: { 400: "The bulk id is not a UUID", 404: "No bulk send with this id on the caller's account" },
  },
  "GET /api/v1/sms": {
    operationId: "listSms",
    summary: "List messages",
    description:
      "The account's messages, newest first, filtered; a test key lists only test messages, a live key only live ones. " +
      "Follow `next_cursor` with the same filters for the next page. A bad filter is a 400 naming it in `validation_errors`.",
    tag: "SMS",
    query: { schema: smsSearchQuerySchema },
    success: { status: 200, description: "One page of messages", body: "SmsListEnvelope" },
    errors: { 400: "A filter is invalid; `validation_errors` names each" },
  },
  "GET /api/v1/sms/export": {
    operationId: "exportSms",
    summary: "Export messages as CSV",
    description:
      "Every message the filters select, newest first, as CSV streamed whatever its size (no paging). One line per message, " +
      "the Sms object's fields then `bulk_id`; a cell starting with =, +, - or @ is prefixed with ' so a spreadsheet shows it as text.",
    tag: "SMS",
    query: { schema: smsExportQuerySchema },
    success: { status: 200, description: "The messages as CSV", body: { csv: MESSAGE_CSV_COLUMNS } },
    errors: { 400: "A filter is invalid; `validation_errors` names each" },
  },
  "POST /api/v1/api-tokens": {
    operationId: "createApiKey",
    summary: "Create an API key",
    description: "The secret (`token`) is in this response only. A key created with a test key is a test key.",
    tag: "API keys",
    request: "CreateApiKeyRequest",
    idempotent: true,
    success: { status: 201, description: "Key created", body: "ApiKeyCreatedEnvelope" },
    errors: {
      400: "`name` missing, blank or too long, or a malformed body",
      ...IDEMPOTENCY_ERRORS,
      422: "The Idempotency-Key was used for a different request",
    },
  },
  "GET /api/v1/api-tokens": {
    operationId: "listApiKeys",
    summary: "List API keys",
    description:
      "The keys of the caller's account, newest first (a test key sees only test keys). `message` is the empty string. No key material.",
    tag: "API keys",
    success: { status: 200, description: "The account's keys", body: "ApiKeyListEnvelope" },
    errors: {},
  },
  "DELETE /api/v1/api-tokens/:id": {
    operationId: "revokeApiKey",
    summary: "Revoke an API key",
    description:
      "Immediate: the next request with the key gets 401. An unknown id, or another account's, answers 200 as well and changes nothing.",
    tag: "API keys",
    success: { status: 200, description: "Key revoked (or no such key)", body: "StatusEnvelope" },
    errors: { 400: "The id is not a UUID" },
  },
  "GET /api/v1/accounts/:account_id/balance": {
    operationId: "getBalance",
    summary: "Get the prepaid balance",
    tag: "Account",
    success: { status: 200, description: "The balance", body: "BalanceEnvelope" },
    errors: { 404: "Not the caller's account (another account's id, an unknown id and a non-UUID answer alike)" },
  },
  "GET /api/v1/accounts/:account_id/sender-ids": {
    operationId: "listSenderIds",
    summary: "List sender ids",
    tag: "Account",
    success: { status: 200, description: "Approved, pending and rejected sender ids", body: "SenderIdListEnvelope" },
    errors: { 404: "Not the caller's account" },
  },
  "POST /api/v1/accounts/:account_id/sender-ids": {
    operationId: "requestSenderId",
    summary: "Request a sender id",
    description: "The new sender id is pending until an administrator approves it; only approved sender ids can send.",
    tag: "Account",
    request: "CreateSenderIdRequest",
    success: { status: 201, description: "Requested; pending approval", body: "SenderIdEnvelope" },
    errors: {
      400: "`sender_id` missing, blank or not a valid originator (1-11 letters, digits, spaces or . _ & -, or up to 15 digits)",
      403: OWNERS_KEY_ONLY,
      404: "Not the caller's account",
      409: "The account already has this sender id",
    },
  },
  "POST /api/v1/webhooks": {
    operationId: "createWebhookEndpoint",
    summary: "Create a webhook endpoint",
    description:
      "Every event of the listed types is POSTed to `url`, signed per Standard Webhooks with the endpoint's secret (`secret`, in this response only).",
    tag: "Webhooks",
    request: "CreateWebhookEndpointRequest",
    success: { status: 201, description: "Endpoint created", body: "WebhookEndpointWithSecretEnvelope" },
    errors: {
      400: "`url` missing, not http(s), or resolving to a private, loopback or link-local address; `events` empty or naming an unknown type (`events[i]`)",
      403: OWNERS_KEY_ONLY,
      409: "The account already holds the most endpoints it may",
    },
  },
  "GET /api/v1/webhooks": {
    operationId: "listWebhookEndpoints",
    summary: "List webhook endpoints",
    description: "The account's endpoints, newest first. `message` is the empty string. Never the secrets.",
    tag: "Webhooks",
    success: { status: 200, description: "The account's endpoints", body: "WebhookEndpointListEnvelope" },
    errors: { 403: "A test key" },
  },
  "DELETE /api/v1/webhooks/:id": {
    operationId: "deleteWebhookEndpoint",
    summary: "Delete a webhook endpoint",
    description: "Nothing more is delivered to it, deliveries still pending included.",
    tag: "Webhooks",
    success: { status: 200, description: "Endpoint deleted", body: "StatusEnvelope" },
    errors: { 403: OWNERS_KEY_ONLY, 404: "No such endpoint in the caller's account" },
  },
  "POST /api/v1/webhooks/:id/rotate": {
    operationId: "rotateWebhookEndpointSecret",
    summary: "Rotate a webhook endpoint's secret",
    description:
      "Returns the new secret (in this response only). For 24 hours the old secret stays valid: each delivery's `webhook-signature` carries both signatures.",
    tag: "Webhooks",
    success: { status: 200, description: "Secret rotated", body: "WebhookEndpointWithSecretEnvelope" },
    errors: { 403: OWNERS_KEY_ONLY, 404: "No such endpoint in the caller's account" },
  },
};

const optOutOperations: Record<string, Operation> = {
  "GET /api/v1/opt-outs": {
    operationId: "listOptOuts",
    summary: "List the opt-out list",
    description: "The account's opt-out list, newest first, a page at a time. Test and live keys share the account's one list.",
    tag: "Opt-outs",
    query: { schema: optOutListQuerySchema },
    success: { status: 200, description: "A page of the list", body: "OptOutPageEnvelope" },
    errors: { 400: "`limit` out of range, or a `cursor` this endpoint did not give" },
  },
  "POST /api/v1/opt-outs": {
    operationId: "addOptOut",
    summary: "Add a number to the opt-out list",
    description:
      "Sends to the number are refused from the next send on, by every process. Idempotent: a number already on the list answers 200 with the entry as it was added first.",
    tag: "Opt-outs",
    request: "AddOptOutRequest",
    success: { status: 201, description: "Added", body: "OptOutEnvelope" },
    alsoSuccess: { status: 200, description: "Already on the list: the entry as it was first added", body: "OptOutEnvelope" },
    errors: {
      400: "`number` missing or not a Zimbabwe mobile number, or a malformed body",
    },
  },
  "DELETE /api/v1/opt-outs/:number": {
    operationId: "removeOptOut",
    summary: "Remove a number from the opt-out list",
    description: "Sends to the number go through again. The number may be written in any form (URL-encode a leading `+` as `%2B`).",
    tag: "Opt-outs",
    success: { status: 200, description: "Removed", body: "StatusEnvelope" },
    errors: { 400: "The number is not a Zimbabwe mobile number", 404: "The number is not on the account's opt-out list" },
  },
  "GET /api/v1/inbound": {
    operationId: "listInbound",
    summary: "List inbound messages",
    description:
      "Messages sent to the account's numbers and short codes, newest first, filtered: with a live key the carriers' " +
      "messages, with a test key the sandbox's (POST /api/v1/inbound/simulate). " +
      "Follow `next_cursor` with the same filters for the next page. A bad filter is a 400 naming it in `validation_errors`.",
    tag: "Inbound",
    query: { schema: inboundSearchQuerySchema },
    success: { status: 200, description: "One page of inbound messages", body: "InboundListEnvelope" },
    errors: { 400: "A filter is invalid; `validation_errors` names each" },
  },
  "GET /api/v1/inbound/:id": {
    operationId: "getInbound",
    summary: "Get an inbound message",
    tag: "Inbound",
    success: { status: 200, description: "The inbound message", body: "InboundMessageEnvelope" },
    errors: {
      400: "The id is not a UUID",
      404: "No inbound message with this id on the caller's account in the key's mode (test or live)",
    },
  },
  "POST /api/v1/inbound/simulate": {
    operationId: "simulateInbound",
    summary: "Simulate an inbound message (test keys)",
    description:
      "The sandbox: the SMSC simulator sends `message` from `from` to `to` as a real deliver_sm over the account's simulated " +
      "carrier bind (the carrier of `from`'s prefix), and it is stored as a carrier's would be, as a test message; it shows in " +
      "GET /api/v1/inbound read with a test key within moments. `to` must be one of the account's numbers on that carrier or on all.",
    tag: "Inbound",
    request: "SimulateInboundRequest",
    success: { status: 202, description: "Queued for the simulator", body: "SimulatedInboundEnvelope" },
    errors: {
      400: "A field missing or invalid (`to` not one of the account's numbers, `message` blank or only spaces); `validation_errors` names each",
      403: "A live key: the sandbox takes test keys only",
    },
  },
};

const PATH_PARAMETERS: Record<string, string> = {
  id: "The resource id (a UUID)",
  account_id: "The caller's account id (a UUID); `account_id` of the key's create response",
  number: "A phone number, in any written form",
  bulk_id: "The bulk send's id (a UUID); `bulk_id` of the bulk send's messages",
};

const jsonContent = (component: string) => ({ "application/json": { schema: { $ref: COMPONENT_REF + component } } });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": headerRef("RateLimit-Limit"),
  "RateLimit-Remaining": headerRef("RateLimit-Remaining"),
  "RateLimit-Reset": headerRef("RateLimit-Reset"),
};

/** 401, 413 and 503 are answered before a key is counted, so they carry no rate-limit state. */
function errorHeaders(status: number, operation: Operation) {
  if (status === 401 || status === 413) return undefined;
  if (status === 503) return { "Retry-After": headerRef("Retry-After") };
  const retry = status === 429 || (status === 409 && operation.idempotent);
  return retry ? { ...RATE_LIMIT_HEADERS, "Retry-After": headerRef("Retry-After") } : RATE_LIMIT_HEADERS;
}

/** A body limit as the docs write it: 65536 → "64 KiB", 8388608 → "8 MiB". */
function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

function describeOperation(route: ApiRoute, operation: Operation) {
  const errorBody = (status: number, shape: ErrorShape) => (status === 401 || shape === "kit" ? "KitError" : "LegacyError");
  const errors: Record<number, string> = {
    ...operation.errors,
    401: "No key, or a malformed, unknown, expired or revoked key (always the kit shape)",
    // Any request, with or without a body in its contract: the limit is checked before the route's handler runs.
    413: `The request body is larger than the endpoint accepts (${describeBytes(route.bodyLimit ?? SMALL_BODY_LIMIT)})`,
    429: "Over the key's request rate limit; retry after Retry-After seconds",
  };
  if (operation.request)
    errors[503] =
      "The server holds as much request body as it may (HTTP_BODY_MEMORY_MB); the body was not read. Retry after Retry-After seconds";
  const responses: Record<string, unknown> = {
    [operation.success.status]: {
      description: operation.success.description,
      headers: operation.idempotent
        ? { ...RATE_LIMIT_HEADERS, "Idempotent-Replayed": headerRef("Idempotent-Replayed") }
        : RATE_LIMIT_HEADERS,
      content: successContent(operation.success.body),
    },
  };
  if (operation.alsoSuccess) {
    responses[operation.alsoSuccess.status] = {
      description: operation.alsoSuccess.description,
      headers: RATE_LIMIT_HEADERS,
      content: jsonContent(operation.alsoSuccess.body),
    };
  }
  for (const [status, description] of Object.entries(errors).sort(([a], [b]) => Number(a) - Number(b))) {
    const headers = errorHeaders(Number(status), operation);
    responses[status] = { description, ...(headers ? { headers } : {}), content: jsonContent(errorBody(Number(status), route.errorShape)) };
  }
  const pathParameters = route.path
    .split("/")
    .filter((segment) => segment.startsWith(":"))
    .map((segment) => ({
      name: segment.slice(1),
      in: "path",
      required: true,
      description: PATH_PARAMETERS[segment.slice(1)],
      schema: segment === ":number" ? { type: "string" } : { type: "string", format: "uuid" },
    }));
  const queryParameters = operation.query ? queryParametersOf(operation.query.schema) : [];
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: [operation.tag],
    parameters: [
      ...pathParameters,
      ...queryParameters,
      ...(operation.idempotent ? [{ $ref: "#/components/parameters/IdempotencyKey" }] : []),
    ],
    ...(operation.request ? { requestBody: { required: true, content: jsonContent(operation.request) } } : {}),
    responses,
  };
}

function successContent(body: Operation["success"]["body"]) {
  if (typeof body === "string") return jsonContent(body);
  return {
    "text/csv": {
      schema: { type: "string", description: `CSV with a header line: ${body.csv.join(",")}; lines end in CRLF` },
    },
  };
}

/** One optional query parameter per field, described by the field's own schema. */
function queryParametersOf(schema: z.ZodObject) {
  return Object.entries(schema.shape).map(([name, field]) => {
    const { description, ...fieldSchema } = z.toJSONSchema(field as z.ZodType, { target: "draft-2020-12", io: "input" }) as Record<
      string,
      unknown
    >;
    delete fieldSchema.$schema;
    return { name, in: "query", required: false, ...(description ? { description } : {}), schema: fieldSchema };
  });
}

/** JSON Schemas of a set of zod schemas, each a component that refers to the others by $ref. */
function componentSchemas(components: Record<string, z.ZodType>, io: "input" | "output"): Record<string, object> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(components)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: "draft-2020-12", io, uri: (id) => COMPONENT_REF + id });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
      return [id, rest];
    }),
  );
}

export function buildOpenApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of [...smsRoutes, ...keyRoutes, ...accountRoutes, ...optOutRoutes, ...webhookRoutes, ...inboundRoutes]) {
    const operation = operations[`${route.method} ${route.path}`] ?? optOutOperations[`${route.method} ${route.path}`];
    if (!operation) throw new Error(`OpenAPI: no documentation for ${route.method} ${route.path}`);
    const path = route.path.replace(/:(\w+)/g, "{$1}");
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: describeOperation(route, operation) };
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: "getOpenApiDocument",
      summary: "This document",
      tags: ["Meta"],
      security: [],
      responses: { 200: { description: "The OpenAPI 3.1 document", content: { "application/json": { schema: { type: "object" } } } } },
    },
  };

  return {
    openapi: "3.1.0",
    info: {
      title: "Tumira SMS API",
      version: "1.0.0",
      description:
        "Send SMS to Zimbabwe's carriers (Econet, NetOne, Telecel), follow each message to the handset, manage API keys. " +
        "Money is integer ten-thousandths of the account currency (10000 = 1.00): a string in the Sms object, an integer elsewhere. " +
        "Two error shapes exist (KitError, LegacyError); each response lists its own.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "SMS", description: "Single and bulk sends, reading a message back" },
      { name: "API keys", description: "Create, list and revoke the keys that authenticate every request" },
      { name: "Account", description: "Balance and sender ids of the caller's account" },
      { name: "Opt-outs", description: "Numbers the account's sends never go to" },
      { name: "Webhooks", description: "Endpoints that receive the account's events (docs/api.md, event catalogue)" },
      { name: "Inbound", description: "Messages sent to the account's numbers and short codes, and their sandbox" },
      { name: "Meta", description: "This description" },
    ],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description:
            "`Authorization: Bearer <API key>`. Live keys start tmr_live_, sandbox keys tmr_test_ (priced and shown, never sent to a carrier, never charged).",
        },
      },
      schemas: { ...componentSchemas(responseComponents, "output"), ...componentSchemas(requestComponents, "input") },
      parameters: {
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "Makes a retry safe: the same key with the same request within 24 hours replays the first answer and does nothing again.",
          schema: { type: "string", minLength: 1, maxLength: 255 },
        },
      },
      headers: {
        "RateLimit-Limit": { description: "Requests per second this key may make", schema: { type: "integer" } },
        "RateLimit-Remaining": { description: "Requests left right now", schema: { type: "integer" } },
        "RateLimit-Reset": { description: "Seconds until the allowance is full again", schema: { type: "integer" } },
        "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer" } },
        "Idempotent-Replayed": {
          description: "`true` when this is the replayed answer to an earlier request with the same Idempotency-Key",
          schema: { type: "string", enum: ["true"] },
        },
      },
    },
  };
}
