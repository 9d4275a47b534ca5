// The production HTTP server: /api/v1/*, /api/health and /metrics go straight to the API (the lean
// path: no Next pipeline, see README "Architecture"); everything else goes to Next.
// The lean path skips what costs most per request in Node's Web API objects: it reads the body from
// node:http's events, hands handlers node's own parsed headers, and builds a Web Request only if a
// handler reaches past method and url (a POST Request costs about 30 µs, a third of a small request).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { payloadTooLarge, runApiRequest } from "@/lib/api/handle-api-request";
import { isApiPath } from "@/lib/api/routes";
import type { RequestHeaders } from "@/lib/api/route";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";

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
  const server = createHttpServer(nextHandler, { trustProxy: env.TRUST_PROXY });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      await closeHttpServer(server);
      await closeNext?.().catch(() => undefined);
    },
  };
}

/** Resolves when every in-flight request has finished (or the grace period ran out). */
function closeHttpServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearTimeout(force);
      clearInterval(idle);
      resolve();
    });
    server.closeIdleConnections();
  });
}

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

function createHttpServer(nextHandler: NodeHandler | null, options: { trustProxy: boolean }): http.Server {
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
  return server;
}

async function serveApi(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  try {
    const method = req.method ?? "GET";
    const url = `http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`;
    const body = method === "GET" || method === "HEAD" ? null : await readBody(req);
    const response = await runApiRequest({
      method,
      pathname: plainPathname(req.url ?? "/") ?? new URL(url).pathname,
      headers: nodeRequestHeaders(req),
      request: lazyWebRequest(req, url, body),
      readBody: async (limit) => {
        if (body && body.length > limit) throw payloadTooLarge(limit);
        return body ?? NO_BODY;
      },
    });
    if (typeof response.body !== "string") {
      res.writeHead(response.status, response.headers);
      await writeChunks(res, response.body);
      return;
    }
    res.writeHead(response.status, { ...response.headers, "content-length": String(Buffer.byteLength(response.body)) });
    res.end(response.body);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      res.writeHead(413, { "content-type": "application/json; charset=utf-8", connection: "close" });
      res.end(JSON.stringify({ status: "error", message: "Request body too large", error: { code: "PAYLOAD_TOO_LARGE", description: `The request body must be at most ${LEAN_PATH_BODY_CAP} bytes` } }));
      return;
    }
    logger.error({ err: error }, "lean path failed");
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify({ status: "error", message: "Internal server error", error: { code: "INTERNAL_SERVER_ERROR", description: "An unexpected error occurred" } }));
  }
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

/** The request target's path when it is plain (the API's own paths are); null when it needs URL parsing. */
function plainPathname(target: string): string | null {
  const query = target.indexOf("?");
  const path = query < 0 ? target : target.slice(0, query);
  return PLAIN_PATH.test(path) ? path : null;
}

/**
 * Web Headers' get over node's raw headers: case-insensitive, a repeated header's values joined.
 * A handler reads three or four headers; node's headersDistinct would lowercase and copy them all.
 */
function nodeRequestHeaders(req: http.IncomingMessage): RequestHeaders {
  return {
    get: (name) => {
      const wanted = name.toLowerCase();
      const raw = req.rawHeaders;
      let value: string | null = null;
      for (let i = 0; i < raw.length; i += 2) {
        if (raw[i].length !== wanted.length || raw[i].toLowerCase() !== wanted) continue;
        value = value === null ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
      }
      return value;
    },
  };
}

function webHeaders(req: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  return headers;
}

/** Stands in for a Web Request: method and url as read; anything else builds the real one. */
function lazyWebRequest(req: http.IncomingMessage, url: string, body: Buffer | null): Request {
  let request: Request | undefined;
  const method = req.method ?? "GET";
  const known: Record<string, unknown> = { url, method };
  return new Proxy(known, {
    get(target, property) {
      if (typeof property === "string" && Object.hasOwn(target, property)) return target[property];
      request ??= new Request(url, { method, headers: webHeaders(req), body: body ? new Uint8Array(body) : null });
      const value = Reflect.get(request, property, request);
      return typeof value === "function" ? value.bind(request) : value;
    },
    getPrototypeOf: () => Request.prototype,
  }) as unknown as Request;
}
