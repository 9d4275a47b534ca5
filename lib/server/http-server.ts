// The production HTTP server: /api/v1/*, /api/health and /metrics go straight to the API (the lean
// path: no Next pipeline, see README "Architecture"); everything else goes to Next.
// The lean path reads plain API requests off the socket itself (lib/server/lean-connections.ts) and
// hands any other connection to node:http, whose API requests end here too (serveApi). Either way
// handlers get the raw headers behind Web Headers' get, and a Web Request built only if a handler
// reaches past method and url (a POST Request costs about 30 µs, a third of a small request).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { payloadTooLarge, runApiRequest } from "@/lib/api/handle-api-request";
import { json, type ApiResponse, type HeaderMap } from "@/lib/api/respond";
import { isApiPath } from "@/lib/api/routes";
import type { RequestHeaders } from "@/lib/api/route";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { serveLeanConnections, type LeanConnections } from "./lean-connections";

/** Above the largest route limit (bulk); each route checks its own limit. */
const LEAN_PATH_BODY_CAP = 16 * 1024 * 1024;
const NO_BODY = Buffer.alloc(0);
const SHUTDOWN_GRACE_MS = 15_000;

export type ServeOptions = {
  /** Serve the dashboard through Next (production build unless dev). */
  dashboard: boolean;
  dev?: boolean;
  port?: number;
  host?: string;
};

/** A listening HTTP server; close() stops accepting and resolves once in-flight requests have finished. */
export type HttpServing = { port: number; close: () => Promise<void> };

/** Next (when serving the dashboard) and the HTTP server, listening on the configured address. */
export async function serveHttp(options: ServeOptions): Promise<HttpServing> {
  const env = getEnv();
  const host = options.host ?? env.HOST;
  const port = options.port ?? env.PORT;
  let nextHandler: NodeHandler | null = null;
  let closeNext: (() => Promise<void>) | undefined;
  if (options.dashboard) {
    const { default: next } = await import("next");
    const app = next({ dev: options.dev ?? false, dir: process.cwd(), hostname: host, port });
    await app.prepare();
    nextHandler = app.getRequestHandler();
    closeNext = () => app.close();
  }
  const { server, lean } = createHttpServer(nextHandler, { trustProxy: env.TRUST_PROXY });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      await closeHttpServer(server, lean);
      await closeNext?.().catch(() => undefined);
    },
  };
}

/** Resolves when every in-flight request has finished (or the grace period ran out). */
function closeHttpServer(server: http.Server, lean: LeanConnections): Promise<void> {
  return new Promise((resolve) => {
    const closeIdle = () => {
      server.closeIdleConnections();
      lean.closeIdle();
    };
    const force = setTimeout(() => {
      server.closeAllConnections();
      lean.closeAll();
    }, SHUTDOWN_GRACE_MS);
    const idle = setInterval(closeIdle, 100);
    server.close(() => {
      clearTimeout(force);
      clearInterval(idle);
      resolve();
    });
    closeIdle();
  });
}

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

type ServerWithLeanPath = { server: http.Server; lean: LeanConnections };

function createHttpServer(nextHandler: NodeHandler | null, options: { trustProxy: boolean }): ServerWithLeanPath {
  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? "/").split("?")[0];
    if (isApiPath(pathname) || !nextHandler) {
      void serveApi(req, res);
      return;
    }
    // The sign-in throttle keys on the client address; unless a trusted proxy sets it, a client
    // could send any X-Forwarded-For, so the socket's address replaces it.
    if (!options.trustProxy) req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "";
    void nextHandler(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const lean = serveLeanConnections(server, {
    accepts: (_method, target) => !nextHandler || isApiPath(target.split("?")[0]),
    answer: ({ method, target, rawHeaders, body }) => answerApi(method, target, rawHeaders, body),
    failed: internalError,
    bodyCap: LEAN_PATH_BODY_CAP,
    tooLarge: () => bodyTooLarge(),
  });
  return { server, lean };
}

/** The API's answer to a request, read by either path. */
function answerApi(method: string, target: string, rawHeaders: string[], body: Buffer | null): Promise<ApiResponse> {
  const headers = rawHeadersGetter(rawHeaders);
  const url = () => requestUrl(headers.get("host"), target);
  return runApiRequest({
    method,
    pathname: plainPathname(target) ?? new URL(url()).pathname,
    headers,
    request: lazyWebRequest(method, url, rawHeaders, body),
    readBody: async (limit) => {
      if (body && body.length > limit) throw payloadTooLarge(limit);
      return body ?? NO_BODY;
    },
  });
}

/** node:http's side of the API: connections the lean path handed over (lib/server/lean-connections.ts). */
async function serveApi(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  let response: ApiResponse;
  try {
    const method = req.method ?? "GET";
    const body = method === "GET" || method === "HEAD" ? null : await readBody(req);
    response = await answerApi(method, req.url ?? "/", req.rawHeaders, body);
  } catch (error) {
    response = error instanceof BodyTooLargeError ? bodyTooLarge({ connection: "close" }) : internalError(error);
  }
  try {
    if (typeof response.body !== "string") {
      res.writeHead(response.status, response.headers);
      await writeChunks(res, response.body);
      return;
    }
    res.writeHead(response.status, { ...response.headers, "content-length": String(Buffer.byteLength(response.body)) });
    res.end(response.body);
  } catch (error) {
    const failed = internalError(error);
    if (!res.headersSent) res.writeHead(failed.status, failed.headers);
    res.end(failed.body);
  }
}

/** The 413 of a body past LEAN_PATH_BODY_CAP; the connection closes, the rest of the upload is never read. */
function bodyTooLarge(headers: HeaderMap = {}): ApiResponse {
  const description = `The request body must be at most ${LEAN_PATH_BODY_CAP} bytes`;
  return json(413, { status: "error", message: "Request body too large", error: { code: "PAYLOAD_TOO_LARGE", description } }, headers);
}

function internalError(error: unknown): ApiResponse {
  logger.error({ err: error }, "lean path failed");
  return json(500, { status: "error", message: "Internal server error", error: { code: "INTERNAL_SERVER_ERROR", description: "An unexpected error occurred" } });
}

/** A body of chunks, each written when the socket has taken the last (chunked transfer encoding). */
async function writeChunks(res: http.ServerResponse, chunks: Iterable<string>): Promise<void> {
  const closed = new Promise((resolve) => res.once("close", resolve));
  for (const chunk of chunks) {
    if (res.write(chunk)) continue;
    await Promise.race([new Promise((resolve) => res.once("drain", resolve)), closed]);
    if (res.destroyed) return; // the client went away: nothing more to write
  }
  res.end();
}

class BodyTooLargeError extends Error {}

/** Read with data/end events: an async iterator over the request costs about 10 µs more per request. */
function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      chunks.push(chunk);
      if (size <= LEAN_PATH_BODY_CAP) return;
      // Stop reading: the 413 closes the connection, the rest of the upload is never taken.
      req.off("data", onData);
      req.pause();
      reject(new BodyTooLargeError());
    };
    req.on("data", onData);
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.once("error", reject);
    // A client gone before the end of its body: nothing to answer.
    req.once("close", () => {
      if (!req.complete) reject(new Error("request aborted before the end of its body"));
    });
  });
}

/** Letters, digits, `_`, `-` and `/`: a path that URL parsing would return as it is. */
const PLAIN_PATH = /^\/[\w/-]*$/;
/** A host name or IPv4 address with a port of up to four digits: always a valid URL host. */
const PLAIN_HOST = /^[A-Za-z0-9.-]{1,253}(?::\d{1,4})?$/;

/** The request target's path when it is plain (the API's own paths are); null when it needs URL parsing. */
function plainPathname(target: string): string | null {
  const query = target.indexOf("?");
  const path = query < 0 ? target : target.slice(0, query);
  return PLAIN_PATH.test(path) ? path : null;
}

/** The request's URL from its Host and target; a host a URL cannot hold is taken as localhost. */
function requestUrl(host: string | null, target: string): string {
  const url = `http://${host ?? "localhost"}${target}`;
  if (host && PLAIN_HOST.test(host) && target.startsWith("/")) return url;
  return URL.canParse(url) ? url : new URL(target.startsWith("/") ? target : "/", "http://localhost").href;
}

/**
 * Web Headers' get over raw headers (names and values alternating, as sent): case-insensitive, a
 * repeated header's values joined. A handler reads three or four headers; lowercasing and copying
 * them all would cost more.
 */
function rawHeadersGetter(raw: string[]): RequestHeaders {
  return {
    get: (name) => {
      const wanted = name.toLowerCase();
      let value: string | null = null;
      for (let i = 0; i < raw.length; i += 2) {
        if (raw[i].length !== wanted.length || raw[i].toLowerCase() !== wanted) continue;
        value = value === null ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
      }
      return value;
    },
  };
}

function webHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  return headers;
}

/** Stands in for a Web Request: method as read, the url made when read; anything else builds the real one. */
function lazyWebRequest(method: string, url: () => string, rawHeaders: string[], body: Buffer | null): Request {
  let request: Request | undefined;
  return new Proxy({} as Request, {
    get(_target, property) {
      if (property === "method") return method;
      if (property === "url") return request?.url ?? url();
      request ??= new Request(url(), { method, headers: webHeaders(rawHeaders), body: body ? new Uint8Array(body) : null });
      const value = Reflect.get(request, property, request);
      return typeof value === "function" ? value.bind(request) : value;
    },
    getPrototypeOf: () => Request.prototype,
  });
}
