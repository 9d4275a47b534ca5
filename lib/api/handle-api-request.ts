// The one entry to the HTTP API: both Next's route handler (app/api/v1/[...path]/route.ts) and the
// production server's lean path (lib/server/http-server.ts) call handleApiRequest with a Web Request.
// It assigns the request id, finds the route, reads the body under the route's limit, runs the
// handler, maps errors to the route's error shape, and records metrics and one log line.
import crypto from "node:crypto";
import { logger } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { AppError } from "@/lib/errors";
import { compileRoutes, matchRoute, SMALL_BODY_LIMIT } from "./route";
import { errorResponse, toAppError } from "./respond";
import { apiRoutes } from "./routes";

const compiled = compileRoutes(apiRoutes);
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,64}$/;

export async function handleApiRequest(request: Request): Promise<Response> {
  const started = performance.now();
  const incomingId = request.headers.get("x-request-id");
  const requestId = incomingId && REQUEST_ID_PATTERN.test(incomingId) ? incomingId : crypto.randomUUID();
  const log = logger.child({ requestId });
  const url = new URL(request.url);
  const match = matchRoute(compiled, request.method, url.pathname);
  const routeName = match.kind === "not-found" ? "unmatched" : match.route.path;

  let response: Response;
  if (match.kind === "not-found") {
    response = errorResponse(new AppError("NOT_FOUND", "Not found", { description: `No endpoint at ${url.pathname}` }), "kit");
  } else if (match.kind === "method-not-allowed") {
    response = errorResponse(
      new AppError("METHOD_NOT_ALLOWED", "Method not allowed", { description: `Use ${match.allowed.join(" or ")}` }),
      match.route.errorShape,
      { allow: match.allowed.join(", ") },
    );
  } else {
    const { route, params } = match;
    try {
      const body = await readBody(request, route.bodyLimit ?? SMALL_BODY_LIMIT);
      response = await route.handler({ request, params, requestId, log, body });
    } catch (error) {
      const appError = toAppError(error);
      if (appError.code === "INTERNAL") log.error({ err: error, route: route.path }, "request failed");
      response = errorResponse(appError, route.errorShape);
    }
  }

  response.headers.set("x-request-id", requestId);
  const seconds = (performance.now() - started) / 1000;
  const labels = { route: routeName, method: request.method, status: String(response.status) };
  metrics().httpRequests.inc(labels);
  metrics().httpDuration.observe(labels, seconds);
  if (log.isLevelEnabled("debug") || response.status >= 500) {
    log[response.status >= 500 ? "error" : "debug"]({ ...labels, path: url.pathname, ms: Math.round(seconds * 1000) }, "request");
  }
  return response;
}

async function readBody(request: Request, limit: number): Promise<Buffer> {
  if (!request.body) return Buffer.alloc(0);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function tooLarge(limit: number): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", "Request body too large", {
    description: `The request body must be at most ${limit} bytes`,
  });
}
