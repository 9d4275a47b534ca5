// The inbound endpoints: the account's received messages, and the sandbox that makes the simulator
// send one in (test keys only). Kit error shape.
import type { ApiRoute } from "@/lib/api/route";
import { withApiKey, type AuthedContext } from "@/lib/api/auth/with-api-key";
import { type ApiResponse, envelope, json } from "@/lib/api/respond";
import { parseJsonRequest, parseUuid } from "@/lib/api/parse-request";
import { AppError } from "@/lib/errors";
import { encodeInboundCursor, getInbound, listInbound } from "@/lib/inbound/list-inbound";
import { queueInboundSimulation } from "@/lib/inbound/simulate-inbound";
import { inboundListEnvelopeSchema, parseInboundSearch, simulateInboundRequestSchema, simulatedInboundSchema } from "./inbound-schemas";
import { serializeInbound } from "@/lib/inbound/serialize-inbound";

async function listInboundMessages(context: AuthedContext): Promise<ApiResponse> {
  const { search, limit, cursor } = parseInboundSearch(context.request.url, context.auth.accountId, context.auth.mode);
  const page = await listInbound(search, limit, cursor);
  return json(
    200,
    inboundListEnvelopeSchema.parse({
      status: "success",
      message: "Inbound messages retrieved",
      data: page.rows.map(serializeInbound),
      next_cursor: page.next ? encodeInboundCursor(page.next) : null,
    }),
  );
}

async function getInboundMessage(context: AuthedContext): Promise<ApiResponse> {
  const id = parseUuid(context.params.id);
  if (!id) {
    throw new AppError("BAD_REQUEST", "Invalid inbound message id", {
      description: "The inbound message id must be a UUID",
      fields: [{ field: "id", description: "must be a UUID" }],
    });
  }
  const message = await getInbound(context.auth.accountId, context.auth.mode, id);
  if (!message) throw AppError.notFound("Inbound message");
  return envelope(200, "Inbound message retrieved", serializeInbound(message));
}

async function simulateInbound(context: AuthedContext): Promise<ApiResponse> {
  if (context.auth.mode !== "test") {
    throw new AppError("FORBIDDEN", "Test keys only", {
      description: "Simulated inbound messages are a sandbox feature: use a test key",
    });
  }
  const request = parseJsonRequest(context, simulateInboundRequestSchema);
  const queued = await queueInboundSimulation({ accountId: context.auth.accountId, ...request });
  return envelope(
    202,
    "Inbound message queued for the simulator",
    simulatedInboundSchema.parse({ from: queued.from, to: queued.to, message: queued.body, operator: queued.operator }),
  );
}

export const inboundRoutes: ApiRoute[] = [
  { method: "GET", path: "/api/v1/inbound", errorShape: "kit", handler: withApiKey(listInboundMessages) },
  { method: "POST", path: "/api/v1/inbound/simulate", errorShape: "kit", handler: withApiKey(simulateInbound) },
  { method: "GET", path: "/api/v1/inbound/:id", errorShape: "kit", handler: withApiKey(getInboundMessage) },
];
