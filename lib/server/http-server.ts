// The production HTTP server: /api/v1/*, /api/health and /metrics go straight to handleApiRequest
// (the lean path: no Next pipeline, see README "Architecture"); everything else goes to Next.
import http from "node:http";
import { handleApiRequest } from "@/lib/api/handle-api-request";
import { isApiPath } from "@/lib/api/routes";
import { logger } from "@/lib/log";

/** Above the largest route limit (bulk); each route checks its own limit. */
const LEAN_PATH_BODY_CAP = 16 * 1024 * 1024;

export type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

export function createHttpServer(nextHandler: NodeHandler | null): http.Server {
  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? "/").split("?")[0];
    if (isApiPath(pathname) || !nextHandler) {
      void serveApi(req, res);
      return;
    }
    void nextHandler(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}

async function serveApi(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  try {
    const request = await toWebRequest(req);
    const response = await handleApiRequest(request);
    const body = Buffer.from(await response.arrayBuffer());
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => (headers[key] = value));
    headers["content-length"] = String(body.length);
    res.writeHead(response.status, headers);
    res.end(body);
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

async function toWebRequest(req: http.IncomingMessage): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const method = req.method ?? "GET";
  const url = `http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`;
  if (method === "GET" || method === "HEAD") return new Request(url, { method, headers });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > LEAN_PATH_BODY_CAP) throw new BodyTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return new Request(url, { method, headers, body: Buffer.concat(chunks) });
}
