// The one entry to the HTTP API: both Next's route handler (app/api/v1/[...path]/route.ts) and the
// production server's lean path (lib/server/http-server.ts) end in runApiRequest; Next calls
// handleApiRequest with a Web Request, the lean path passes what it read from node:http directly.
// It assigns the request id, finds the route, checks the declared body length against the route's
// limit and the API key on the head alone, reserves the body's memory (lib/api/body-memory.ts: a
// 503 with Retry-After when the process holds too much already), then reads the body under that
// limit, runs the handler, maps errors to the route's error shape, and records metrics and one log line.
import crypto from "node:crypto";
import { logger } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { AppError } from "@/lib/errors";
import { compileRoutes, matchRoute, SMALL_BODY_LIMIT, type RequestHeaders } from "./route";
import { type ApiResponse, errorResponse, type HeaderMap, toAppError, toWebResponse } from "./respond";
import { apiRoutes } from "./routes";
import { reserveBodyMemory, type BodyMemory } from "./body-memory";
import { RequestLog } from "./request-log";

const compiled = compileRoutes(apiRoutes);
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,64}$/;

export type ApiRequestInput = {
  method: string;
  pathname: string;
  headers: RequestHeaders;
  /** Handed to handlers; the lean path's builds the real Request only if a handler needs more than method and url. */
  request: Request;
  /** The body's declared length (Content-Length); 0 when none is declared. */
  bodyLength: number;
  /**
   * Reads the whole body, throwing payloadTooLarge(limit) past the limit, bodyMemoryExhausted() when
   * `memory` cannot take what arrives beyond the declared length, and clientClosedRequest() when the
   * client leaves before its end. Not called for a request refused on its head.
   */
  readBody: (limit: number, memory: BodyMemory) => Promise<Buffer>;
};

export async function handleApiRequest(request: Request): Promise<Response> {
  const response = await runApiRequest({
    method: request.method,
    pathname: new URL(request.url).pathname,
    headers: request.headers,
    request,
    bodyLength: Number(request.headers.get("content-length")) || 0,
    readBody: (limit, memory) => readWebBody(request, limit, memory),
  });
  return toWebResponse(response);
}

export async function runApiRequest(input: ApiRequestInput): Promise<ApiResponse> {
  const started = performance.now();
  const { method, pathname } = input;
  const incomingId = input.headers.get("x-request-id");
  const requestId = incomingId && REQUEST_ID_PATTERN.test(incomingId) ? incomingId : crypto.randomUUID();
  const log = new RequestLog({ requestId });
  const match = matchRoute(compiled, method, pathname);
  const routeName = match.kind === "not-found" ? "unmatched" : match.route.path;

  const responseHeaders: HeaderMap = {};
  let response: ApiResponse;
  if (match.kind === "not-found") {
    response = errorResponse(new AppError("NOT_FOUND", "Not found", { description: `No endpoint at ${pathname}` }), "kit");
  } else if (match.kind === "method-not-allowed") {
    response = errorResponse(
      new AppError("METHOD_NOT_ALLOWED", "Method not allowed", { description: `Use ${match.allowed.join(" or ")}` }),
      match.route.errorShape,
      { allow: match.allowed.join(", ") },
    );
  } else {
    const { route, params } = match;
    let memory: BodyMemory | null = null;
    try {
      const limit = route.bodyLimit ?? SMALL_BODY_LIMIT;
      if (input.bodyLength > limit) throw payloadTooLarge(limit);
      const auth = await route.handler.authenticate?.(input.headers);
      memory = reserveBodyMemory(input.bodyLength);
      if (!memory) throw bodyMemoryExhausted();
      const body = await input.readBody(limit, memory);
      const { request, headers } = input;
      response = await route.handler({ request, headers, params, requestId, log, body, responseHeaders, auth });
    } catch (error) {
      const appError = toAppError(error);
      if (appError.code === "INTERNAL") log.error({ err: error, route: route.path }, "request failed");
      if (appError.code === "CLIENT_CLOSED_REQUEST") metrics().httpRequestsAborted.inc({ route: routeName, method });
      response = errorResponse(appError, route.errorShape);
    } finally {
      memory?.release();
    }
  }

  Object.assign(response.headers, responseHeaders);
  response.headers["x-request-id"] = requestId;
  const seconds = (performance.now() - started) / 1000;
  const labels = { route: routeName, method, status: String(response.status) };
  metrics().httpRequests.inc(labels);
  metrics().httpDuration.observe(labels, seconds);
  const level = requestLogLevel(response.status);
  if (logger.isLevelEnabled(level)) log[level]({ ...labels, path: pathname, ms: Math.round(seconds * 1000) }, "request");
  return response;
}

/** A 503 is the server shedding load as designed (warn); any other 5xx is a fault (error); the rest is routine (debug). */
function requestLogLevel(status: number): "error" | "warn" | "debug" {
  if (status === 503) return "warn";
  return status >= 500 ? "error" : "debug";
}

async function readWebBody(request: Request, limit: number, memory: BodyMemory): Promise<Buffer> {
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge(limit);
    }
    if (!memory.take(value.byteLength)) {
      await reader.cancel().catch(() => undefined);
      throw bodyMemoryExhausted();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export function payloadTooLarge(limit: number): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", "Request body too large", {
    description: `The request body must be at most ${limit} bytes`,
  });
}

/** The process holds as much request body as it may (HTTP_BODY_MEMORY_MB): this one is not read, or not read further. */
export function bodyMemoryExhausted(): AppError {
  return new AppError("SERVICE_UNAVAILABLE", "Server busy", {
    description: "The server is reading as many request bodies as it can hold; retry after Retry-After seconds",
    retryAfterSeconds: 1,
  });
}

/** The client left before the end of its body: what is answered is never written, only counted. */
export function clientClosedRequest(): AppError {
  return new AppError("CLIENT_CLOSED_REQUEST", "Client closed the request", {
    description: "The connection closed before the end of the request body",
  });
}
