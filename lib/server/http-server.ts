// The production HTTP server: /api/v1/*, /api/health, /api/ping and /metrics go straight to the API
// (no Next pipeline); everything else goes to Next. API requests of the plain shape are read off the
// socket by the lean path (lib/server/lean-connections.ts, docs/decisions/0001-own-http1-path.md),
// which hands any other connection to node:http, whose API requests end here too (serveApi). Both
// paths answer alike: the route's body limit and the API key are checked on the head before any of
// the body is read, and a body left unread is dropped (up to UNREAD_BODY_LIMIT, the connection kept)
// or the connection closed. Handlers get the raw headers behind Web Headers' get, and a Web Request
// built only if a handler reaches past method and url.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { bodyMemoryExhausted, clientClosedRequest, payloadTooLarge, runApiRequest } from "@/lib/api/handle-api-request";
import type { BodyMemory } from "@/lib/api/body-memory";
import { errorResponse, json, type ApiResponse } from "@/lib/api/respond";
import { isApiPath, isSystemPath } from "@/lib/api/routes";
import { SMALL_BODY_LIMIT, type RequestHeaders } from "@/lib/api/route";
import { AppError } from "@/lib/errors";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { serveLeanConnections, type LeanConnections } from "./lean-connections";

/** An answer that did not read its body: a body up to this long is read and dropped, a longer one closes the connection. */
const UNREAD_BODY_LIMIT = SMALL_BODY_LIMIT;
const NO_BODY = Buffer.alloc(0);
const SHUTDOWN_GRACE_MS = 15_000;

export type ServeOptions = {
  /** Serve the dashboard through Next (production build unless dev). */
  dashboard: boolean;
  /** Answer only the health check, the ping and the metrics (a worker's HTTP); anything else is 404. */
  systemOnly?: boolean;
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
  const { server, lean } = createHttpServer(options.systemOnly ? answerNotFound : nextHandler, {
    trustProxy: env.TRUST_PROXY,
    leanPath: env.HTTP_LEAN_PATH,
    apiPaths: options.systemOnly ? isSystemPath : isApiPath,
  });
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
function closeHttpServer(server: http.Server, lean: LeanConnections | null): Promise<void> {
  return new Promise((resolve) => {
    const closeIdle = () => {
      server.closeIdleConnections();
      lean?.closeIdle();
    };
    const force = setTimeout(() => {
      server.closeAllConnections();
      lean?.closeAll();
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

export type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

export type HttpServerOptions = {
  /** X-Forwarded-* and Forwarded come from a proxy in front: taken as sent, otherwise replaced. */
  trustProxy: boolean;
  /** Read plain API requests with the lean path; false: node:http reads every request. */
  leanPath: boolean;
  /** The paths the API answers (default: isApiPath); the rest go to the other handler. */
  apiPaths?: (pathname: string) => boolean;
};

/** The server before it listens: the API on both paths, everything else to `nextHandler` (null: the API only). */
export function createHttpServer(
  nextHandler: NodeHandler | null,
  options: HttpServerOptions,
): { server: http.Server; lean: LeanConnections | null } {
  const isApi = options.apiPaths ?? isApiPath;
  const server = http.createServer((req, res) => {
    const target = originFormTarget(req.url ?? "/");
    if (target === null) {
      void writeResponse(res, badRequestTarget());
      return;
    }
    req.url = target;
    if (isApi(target.split("?")[0]) || !nextHandler) {
      void serveApi(req, res, options.trustProxy);
      return;
    }
    if (!options.trustProxy) replaceForwardedHeaders(req);
    void nextHandler(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  if (!options.leanPath) return { server, lean: null };
  const lean = serveLeanConnections(server, {
    accepts: (_method, target) => !nextHandler || isApi(target.split("?")[0]),
    answer: (request) =>
      answerApi(
        Object.assign({}, request, { readBody: () => request.readBody().catch(() => Promise.reject(clientClosedRequest())) }),
        options.trustProxy,
      ),
    failed: internalError,
    unreadBodyLimit: UNREAD_BODY_LIMIT,
  });
  return { server, lean };
}

/** An API request as either path has read its head. */
type ApiRequestHead = {
  method: string;
  target: string;
  rawHeaders: string[];
  bodyLength: number;
  /** The whole body, at most `limit` bytes, each byte past its declared length taken from `memory`. */
  readBody: (limit: number, memory: BodyMemory) => Promise<Buffer>;
};

/** The API's answer to a request, read by either path. */
function answerApi(head: ApiRequestHead, trustProxy: boolean): Promise<ApiResponse> {
  const { method, target, rawHeaders } = head;
  const headers = rawHeadersGetter(rawHeaders, trustProxy);
  const url = () => requestUrl(headers.get("host"), target);
  let body: Buffer | null = null;
  return runApiRequest({
    method,
    pathname: plainPathname(target) ?? new URL(url()).pathname,
    headers,
    request: lazyWebRequest(
      method,
      url,
      () => webHeaders(rawHeaders, trustProxy),
      () => body,
    ),
    bodyLength: head.bodyLength,
    readBody: async (limit, memory) => {
      body = await head.readBody(limit, memory);
      return body;
    },
  });
}

/** node:http's side of the API: connections the lean path handed over (lib/server/lean-connections.ts). */
async function serveApi(req: http.IncomingMessage, res: http.ServerResponse, trustProxy: boolean): Promise<void> {
  // node:http's parser has checked both headers: one valid length, or chunked.
  const bodyLength = Number(req.headers["content-length"] ?? 0);
  const hasBody = bodyLength > 0 || req.headers["transfer-encoding"] !== undefined;
  const body = { state: "unread" as "unread" | "reading" | "read" };
  let response: ApiResponse;
  try {
    response = await answerApi(
      {
        method: req.method ?? "GET",
        target: req.url ?? "/",
        rawHeaders: req.rawHeaders,
        bodyLength,
        readBody: async (limit, memory) => {
          if (!hasBody) return NO_BODY;
          body.state = "reading";
          const read = await readNodeBody(req, limit, memory);
          body.state = "read";
          return read;
        },
      },
      trustProxy,
    );
  } catch (error) {
    response = internalError(error);
  }
  if (res.destroyed) return; // the client left: nothing to write
  // node:http reads and drops a body left unread (the lean path too, up to the same limit); one past
  // the limit, or one whose reading stopped at the limit, is not waited for.
  const closes = body.state === "reading" || (body.state === "unread" && bodyLength > UNREAD_BODY_LIMIT);
  if (hasBody && closes) response.headers.connection = "close";
  await writeResponse(res, response);
}

async function writeResponse(res: http.ServerResponse, response: ApiResponse): Promise<void> {
  try {
    if (typeof response.body !== "string") {
      res.writeHead(response.status, response.headers);
      await writeChunks(res, response.body);
      return;
    }
    res.writeHead(response.status, Object.assign({}, response.headers, { "content-length": String(Buffer.byteLength(response.body)) }));
    res.end(response.body);
  } catch (error) {
    const failed = internalError(error);
    // Headers out: cutting the connection leaves the client a body without its last chunk, never a whole-looking one.
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(failed.status, failed.headers);
    res.end(failed.body);
  }
}

/** `*` (OPTIONS) or an authority (CONNECT's form): no resource here. */
function badRequestTarget(): ApiResponse {
  const error = new AppError("BAD_REQUEST", "Bad request target", {
    description: "The request target must be a path, such as /api/v1/sms",
  });
  return errorResponse(error, "kit", { connection: "close" });
}

/** A worker's answer to any path but the system ones. */
function answerNotFound(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const path = (req.url ?? "/").split("?")[0];
  const error = new AppError("NOT_FOUND", "Not found", {
    description: `No endpoint at ${path}: a worker answers /api/health, /api/ping and /metrics`,
  });
  return writeResponse(res, errorResponse(error, "kit"));
}

function internalError(error: unknown): ApiResponse {
  logger.error({ err: error }, "lean path failed");
  return json(500, {
    status: "error",
    message: "Internal server error",
    error: { code: "INTERNAL_SERVER_ERROR", description: "An unexpected error occurred" },
  });
}

/** A body of chunks, each written when the socket has taken the last (chunked transfer encoding). */
async function writeChunks(res: http.ServerResponse, chunks: Iterable<string> | AsyncIterable<string>): Promise<void> {
  const closed = new Promise((resolve) => res.once("close", resolve));
  const write = async (chunk: string) => {
    if (res.write(chunk)) return;
    await Promise.race([new Promise((resolve) => res.once("drain", resolve)), closed]);
  };
  // A sync body is iterated without await per chunk: a bulk answer has 100,000 of them.
  if (Symbol.asyncIterator in chunks) {
    for await (const chunk of chunks) {
      await write(chunk);
      if (res.destroyed) return; // the client went away: nothing more to write (the iterator is closed)
    }
  } else {
    for (const chunk of chunks) {
      if (res.write(chunk)) continue;
      await Promise.race([new Promise((resolve) => res.once("drain", resolve)), closed]);
      if (res.destroyed) return; // the client went away: nothing more to write
    }
  }
  res.end();
}

/** Read with data/end events, which cost less per request than an async iterator. */
function readNodeBody(req: http.IncomingMessage, limit: number, memory: BodyMemory): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      const refusal = size > limit ? payloadTooLarge(limit) : memory.take(chunk.length) ? null : bodyMemoryExhausted();
      if (!refusal) {
        chunks.push(chunk);
        return;
      }
      // Stop reading: the 413 or 503 closes the connection, the rest of the upload is never taken.
      chunks.length = 0;
      req.off("data", onData);
      req.pause();
      reject(refusal);
    };
    req.on("data", onData);
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    // A client gone before the end of its body: node:http emits an "aborted" error, then close.
    req.once("error", () => reject(clientClosedRequest()));
    req.once("close", () => {
      if (!req.complete) reject(clientClosedRequest());
    });
  });
}

/**
 * The target in origin form. An absolute-form target (RFC 9112 3.2.2) is served by its path and query:
 * its host is the client's word, and Next would redirect to it. null for `*` and authority-form.
 */
function originFormTarget(target: string): string | null {
  if (target.startsWith("/")) return target;
  if (!/^https?:\/\//i.test(target) || !URL.canParse(target)) return null;
  const url = new URL(target);
  return url.pathname + url.search;
}

/** Set by a proxy in front; without a trusted one, whatever the client wrote. */
function isForwardedHeader(lowerCaseName: string): boolean {
  return lowerCaseName.startsWith("x-forwarded-") || lowerCaseName === "forwarded";
}

/**
 * Without a trusted proxy, X-Forwarded-* and Forwarded are dropped and For, Host and Proto set from
 * the connection itself: the sign-in throttle keys on the address, next-auth builds URLs and the
 * dashboard's origin check compares on the host and scheme the browser used.
 */
function replaceForwardedHeaders(req: http.IncomingMessage): void {
  for (const name of Object.keys(req.headers)) if (isForwardedHeader(name)) delete req.headers[name];
  req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "";
  if (req.headers.host) req.headers["x-forwarded-host"] = req.headers.host;
  req.headers["x-forwarded-proto"] = "http";
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
 * them all would cost more. Forwarded headers read as absent unless a trusted proxy set them.
 */
function rawHeadersGetter(raw: string[], trustProxy: boolean): RequestHeaders {
  return {
    get: (name) => {
      const wanted = name.toLowerCase();
      if (!trustProxy && isForwardedHeader(wanted)) return null;
      let value: string | null = null;
      for (let i = 0; i < raw.length; i += 2) {
        if (raw[i].length !== wanted.length || raw[i].toLowerCase() !== wanted) continue;
        value = value === null ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
      }
      return value;
    },
  };
}

function webHeaders(raw: string[], trustProxy: boolean): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) {
    if (trustProxy || !isForwardedHeader(raw[i].toLowerCase())) headers.append(raw[i], raw[i + 1]);
  }
  return headers;
}

/** Stands in for a Web Request: method as read, the url made when read; anything else builds the real one. */
function lazyWebRequest(method: string, url: () => string, headers: () => Headers, body: () => Buffer | null): Request {
  let request: Request | undefined;
  return new Proxy({} as Request, {
    get(_target, property) {
      if (property === "method") return method;
      if (property === "url") return request?.url ?? url();
      const read = body();
      request ??= new Request(url(), { method, headers: headers(), body: read && read.length > 0 ? new Uint8Array(read) : null });
      const value = Reflect.get(request, property, request);
      return typeof value === "function" ? value.bind(request) : value;
    },
    getPrototypeOf: () => Request.prototype,
  });
}
