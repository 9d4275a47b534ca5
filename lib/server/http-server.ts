// The production HTTP server: /api/v1/*, /api/health and /metrics go straight to the API (the lean
// path: no Next pipeline, see README "Architecture"); everything else goes to Next.
// The lean path skips what costs most per request in Node's Web API objects: it reads the body from
// node:http itself and builds a Web Request only if a handler reaches past method, url and headers
// (a POST Request costs about 30 µs, a third of a whole small request).
import http from "node:http";
import { payloadTooLarge, runApiRequest } from "@/lib/api/handle-api-request";
import { isApiPath } from "@/lib/api/routes";
import { logger } from "@/lib/log";

/** Above the largest route limit (bulk); each route checks its own limit. */
const LEAN_PATH_BODY_CAP = 16 * 1024 * 1024;
const NO_BODY = Buffer.alloc(0);

export type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

export function createHttpServer(nextHandler: NodeHandler | null, options: { trustProxy: boolean }): http.Server {
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
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    const body = method === "GET" || method === "HEAD" ? null : await readBody(req);
    const response = await runApiRequest({
      method,
      pathname: new URL(url).pathname,
      headers,
      request: lazyWebRequest(url, method, headers, body),
      readBody: async (limit) => {
        if (body && body.length > limit) throw payloadTooLarge(limit);
        return body ?? NO_BODY;
      },
    });
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, key) => (responseHeaders[key] = value));
    responseHeaders["content-length"] = String(Buffer.byteLength(response.body));
    res.writeHead(response.status, responseHeaders);
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

class BodyTooLargeError extends Error {}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > LEAN_PATH_BODY_CAP) throw new BodyTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/** Stands in for a Web Request: method, url and headers as read; anything else builds the real one. */
function lazyWebRequest(url: string, method: string, headers: Headers, body: Buffer | null): Request {
  let request: Request | undefined;
  const known: Record<string, unknown> = { url, method, headers };
  return new Proxy(known, {
    get(target, property) {
      if (typeof property === "string" && Object.hasOwn(target, property)) return target[property];
      request ??= new Request(url, { method, headers, body: body ? new Uint8Array(body) : null });
      const value = Reflect.get(request, property, request);
      return typeof value === "function" ? value.bind(request) : value;
    },
    getPrototypeOf: () => Request.prototype,
  }) as unknown as Request;
}
