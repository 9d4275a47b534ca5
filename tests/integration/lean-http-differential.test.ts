// The lean path (lib/server/lean-connections.ts) against node:http: the same requests, over raw
// sockets, to a server with the lean path and to the same server without it (HTTP_LEAN_PATH=false),
// one database behind both. A difference in what is answered (status lines, the headers that matter,
// bodies), in where the next request is read, or in whether the server closes the connection fails.
// Every kind of request the lean path reads needs a vector here (docs/decisions/0001-own-http1-path.md).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccount, startApiServer, type SeededAccount } from "../helpers/api-test-server";
import { useTestDatabase } from "../helpers/test-database";
import type { ServerProcess } from "../helpers/server-process";
import { exchange, sleep, type ExchangeOptions, type RawExchange } from "../helpers/raw-http";

const database = useTestDatabase();
const METRICS_TOKEN = "metrics-token-for-differential";
let lean: ServerProcess;
let nodeOnly: ServerProcess;
let acme: SeededAccount;

beforeAll(async () => {
  acme = await seedAccount({ name: "Acme", senders: ["ACME"] });
  // One after the other: both migrate the one database at start.
  lean = await startApiServer(database.current(), { METRICS_TOKEN });
  nodeOnly = await startApiServer(database.current(), { METRICS_TOKEN, HTTP_LEAN_PATH: "false" });
  // Each path's first request loads and connects what later ones find ready.
  for (const server of [lean, nodeOnly]) {
    for (const pieces of [ping, request("GET http://localhost/api/v1/api-tokens", keyed(acme.token))]) {
      await exchange(server.port, [pieces]);
    }
  }
}, 120_000);

afterAll(async () => {
  await lean?.kill();
  await nodeOnly?.kill();
});

type Vector = { name: string; pieces: (token: string) => string[]; options?: ExchangeOptions };

const CRLF = "\r\n";
const head = (requestLine: string, ...headers: string[]) => [requestLine, ...headers, "", ""].join(CRLF);
/** A request to this host; `target` with or without the method. */
const request = (requestLine: string, ...headers: string[]) => head(`${requestLine} HTTP/1.1`, "Host: localhost", ...headers);
const post = (path: string, ...headers: string[]) => request(`POST ${path}`, ...headers);
const keyed = (token: string) => `Authorization: Bearer ${token}`;
const ping = request("GET /api/ping");
const pingClose = request("GET /api/ping", "Connection: close");
const INVALID_SEND = '{"to":"nope","from":"ACME","message":"hi"}';
const invalidSend = (token: string) =>
  post("/api/v1/sms", keyed(token), "Content-Type: application/json", `Content-Length: ${INVALID_SEND.length}`) + INVALID_SEND;
const INVALID_ENDPOINT = '{"url":"http://10.0.0.1/hook","events":["message.sent"]}';
const bytes = (count: number) => "x".repeat(count);
const one = (text: string) => () => [text];

const vectors: Vector[] = [
  // The plain shape the lean path reads itself.
  { name: "a GET", pieces: one(ping) },
  {
    name: "pipelined GETs, the last closing",
    pieces: one(ping + request("GET /api/health") + head("GET /api/v1/nothing HTTP/1.1", "Host: x") + pingClose),
  },
  { name: "HTTP/1.0 without keep-alive", pieces: one("GET /api/ping HTTP/1.0\r\n\r\n" + ping) },
  { name: "HTTP/1.0 with keep-alive", pieces: one("GET /api/ping HTTP/1.0\r\nConnection: keep-alive\r\n\r\n" + ping) },
  { name: "OPTIONS on an API path", pieces: one(request("OPTIONS /api/v1/sms")) },
  { name: "a target with dot segments and a query", pieces: one(request("GET /api/v1/../ping?x=1&y")) },
  { name: "a percent-encoded path", pieces: one(request("GET /api/v1/sms/%zz%00") + ping) },
  { name: "leading empty lines", pieces: one(CRLF + CRLF + ping) },
  { name: "a header value with tabs, spaces and obs-text", pieces: one(request("GET /api/ping", "X-Note: \t a\xffb \t") + ping) },
  {
    name: "Forwarded headers on an API request",
    pieces: one(request("GET /api/v1/api-tokens", "X-Forwarded-Host: evil.example", "X-Forwarded-Proto: https", "Forwarded: for=1.2.3.4")),
  },
  { name: "a GET with a body, then another request", pieces: one(request("GET /api/ping", "Content-Length: 3") + "abc" + ping) },
  { name: "Content-Length: 0 on a POST", pieces: one(post("/api/v1/sms", "Content-Length: 0") + ping) },
  { name: "a Content-Length with leading zeros", pieces: one(post("/api/v1/nothing", "Content-Length: 003") + "abc" + ping) },
  {
    name: "an authenticated send with an invalid body, its head and body in many writes",
    pieces: (token) => (invalidSend(token) + ping).match(/[\s\S]{1,5}/g)!,
    options: { pauseMs: 2 },
  },
  {
    name: "two authenticated sends pipelined",
    pieces: (token) => {
      return [invalidSend(token) + invalidSend(token) + pingClose];
    },
  },
  { name: "a slow head", pieces: () => ping.match(/[\s\S]{1,4}/g)!, options: { pauseMs: 40 } },
  { name: "a message list with filters", pieces: (token) => [request("GET /api/v1/sms?status=failed&limit=2", keyed(token))] },
  { name: "a bad message filter", pieces: (token) => [request("GET /api/v1/sms?limit=0&to=12", keyed(token)) + ping] },
  { name: "a streamed CSV export, then another request", pieces: (token) => [request("GET /api/v1/sms/export", keyed(token)) + pingClose] },
  { name: "a POST to the export", pieces: one(post("/api/v1/sms/export", "Content-Length: 0") + ping) },
  {
    name: "a cancel of a malformed SMS id",
    pieces: (token) => [post("/api/v1/sms/nope/cancel", keyed(token), "Content-Length: 0") + ping],
  },
  {
    name: "a cancel of an unknown bulk send",
    pieces: (token) => [post("/api/v1/sms/bulk/00000000-0000-4000-8000-000000000000/cancel", keyed(token), "Content-Length: 0") + ping],
  },
  { name: "a GET of a cancel", pieces: (token) => [request("GET /api/v1/sms/00000000-0000-4000-8000-000000000000/cancel", keyed(token))] },
  {
    name: "an inbound list with filters",
    pieces: (token) => [request("GET /api/v1/inbound?from=0771234567&limit=2", keyed(token)) + ping],
  },
  {
    name: "a bad inbound filter and id",
    pieces: (token) => [request("GET /api/v1/inbound?limit=0", keyed(token)) + request("GET /api/v1/inbound/x", keyed(token)) + ping],
  },
  {
    name: "an inbound simulation with a live key",
    pieces: (token) => [
      post("/api/v1/inbound/simulate", keyed(token), "Content-Type: application/json", "Content-Length: 2") + "{}" + ping,
    ],
  },

  // Refused on the head, before the body: the limit, then the key.
  {
    name: "16 MiB declared without a key, no body sent",
    pieces: one(post("/api/v1/sms", "Content-Type: application/json", "Content-Length: 16777216")),
  },
  { name: "a declared body past the bulk limit", pieces: one(post("/api/v1/sms/bulk", `Content-Length: ${64 * 1024 * 1024}`) + '{"to":') },
  {
    name: "60 KiB declared without a key: answered, the body dropped, the next request read",
    pieces: () => [post("/api/v1/sms", `Content-Length: ${60 * 1024}`), bytes(60 * 1024) + ping],
    options: { pauseMs: 100 },
  },
  {
    name: "1 MiB declared to the bulk send without a key: answered, then closed",
    pieces: one(post("/api/v1/sms/bulk", "Content-Length: 1048576") + bytes(1000)),
  },
  {
    name: "a body to a path with no endpoint, then another request",
    pieces: one(post("/api/v1/nothing", "Content-Length: 5") + "hello" + ping),
  },

  // Framing the lean path leaves to node:http.
  {
    name: "Content-Length and Transfer-Encoding both",
    pieces: one(post("/api/v1/sms", "Content-Length: 5", "Transfer-Encoding: chunked") + "0\r\n\r\n" + ping),
  },
  { name: "two different Content-Lengths", pieces: one(post("/api/v1/sms", "Content-Length: 1", "Content-Length: 2") + "ab" + ping) },
  { name: "two equal Content-Lengths", pieces: one(post("/api/v1/sms", "Content-Length: 2", "Content-Length: 2") + "ab" + ping) },
  ...["+2", "-2", "2 2", "2,2", "0x2", "2.0", " ", "99999999999999999999"].map((value) => ({
    name: `Content-Length: ${JSON.stringify(value)}`,
    pieces: one(post("/api/v1/sms", `Content-Length: ${value}`) + "ab" + ping),
  })),
  { name: "Content-Length with spaces around it", pieces: one(post("/api/v1/nothing", "Content-Length:   2  ") + "ab" + ping) },
  {
    name: "a chunked body without a key, then another request",
    pieces: one(post("/api/v1/api-tokens", "Transfer-Encoding: chunked") + '5\r\n{"a":\r\n2\r\n1}\r\n0\r\n\r\n' + ping),
  },
  {
    name: "Transfer-Encoding other than chunked",
    pieces: one(post("/api/v1/sms", "Transfer-Encoding: gzip, chunked") + "0\r\n\r\n" + ping),
  },
  {
    name: "Expect: 100-continue",
    pieces: () => [post("/api/v1/api-tokens", "Expect: 100-continue", "Content-Length: 2"), "{}" + ping],
    options: { pauseMs: 100 },
  },
  { name: "an upgrade", pieces: one(request("GET /api/ping", "Connection: Upgrade", "Upgrade: websocket")) },

  // Malformed heads.
  { name: "obs-fold", pieces: one(request("GET /api/ping", "X-Folded: a", " b") + ping) },
  { name: "a head ending in bare LF", pieces: one("GET /api/ping HTTP/1.1\nHost: a\n\n") },
  { name: "a bare LF in the middle of a head", pieces: one("GET /api/ping HTTP/1.1\r\nHost: a\nX: b\r\n\r\n") },
  { name: "a bare CR in a value", pieces: one(request("GET /api/ping", "X: a\rb")) },
  { name: "a space before the colon", pieces: one(head("GET /api/ping HTTP/1.1", "Host : localhost")) },
  { name: "a space in a header name", pieces: one(request("GET /api/ping", "Bad Header: x")) },
  { name: "a NUL in a header value", pieces: one(request("GET /api/ping", "X: a\0b")) },
  { name: "a NUL in the target", pieces: one(request("GET /api/ping\0")) },
  { name: "a NUL in a head still arriving", pieces: () => ["GET /api/ping HTTP/1.1\r\nX: a\0"] },
  { name: "a DEL in a header value", pieces: one(request("GET /api/ping", "X: a\x7fb")) },
  { name: "no Host in HTTP/1.1", pieces: one(head("GET /api/ping HTTP/1.1")) },
  { name: "two Hosts", pieces: one(head("GET /api/ping HTTP/1.1", "Host: a", "Host: b")) },
  { name: "an empty Host", pieces: one(head("GET /api/ping HTTP/1.1", "Host:") + ping) },
  { name: "a lower-case method", pieces: one(request("get /api/ping")) },
  { name: "an unknown method", pieces: one(request("PROPFIND /api/ping") + ping) },
  // Alone: a response to HEAD declares a length it does not send, which the parser here cannot tell.
  { name: "HEAD", pieces: one(request("HEAD /api/ping")) },
  { name: "two spaces in the request line", pieces: one(request("GET  /api/ping")) },
  { name: "HTTP/1.2", pieces: one(head("GET /api/ping HTTP/1.2", "Host: localhost")) },
  { name: "HTTP/2.0", pieces: one(head("GET /api/ping HTTP/2.0", "Host: localhost")) },
  { name: "a head over 16 KB", pieces: one(request("GET /api/ping", `X-Big: ${bytes(17 * 1024)}`)) },
  { name: "an absolute-form target", pieces: one(request("GET http://evil.example/api/v1/api-tokens") + ping) },
  {
    name: "an absolute-form target with a key",
    pieces: (token) => [request("GET http://evil.example/api/v1/api-tokens?x=1", keyed(token))],
  },
  { name: "OPTIONS *", pieces: one(request("OPTIONS *") + ping) },

  // Webhook endpoints: a refused create, the list, a delete of an unknown id.
  {
    name: "a webhook endpoint create naming a private URL and an unknown event",
    pieces: (token) => [
      post("/api/v1/webhooks", keyed(token), "Content-Type: application/json", `Content-Length: ${INVALID_ENDPOINT.length}`) +
        INVALID_ENDPOINT,
    ],
  },
  { name: "the webhook endpoint list", pieces: (token) => [request("GET /api/v1/webhooks", keyed(token))] },
  {
    name: "a delete of an unknown webhook endpoint",
    pieces: (token) => [request("DELETE /api/v1/webhooks/00000000-0000-4000-8000-000000000000", keyed(token))],
  },
  { name: "an authority-form target", pieces: one(request("GET localhost:3000")) },
  { name: "CONNECT", pieces: one(request("CONNECT localhost:3000")) },

  // Bodies that lie, and requests cut short.
  {
    name: "a first body shorter than declared swallows the next request",
    pieces: one(post("/api/v1/nothing", "Content-Length: 40") + "{}" + ping + ping),
  },
  {
    name: "a first body longer than declared starts the next request",
    pieces: one(post("/api/v1/nothing", "Content-Length: 2") + "{}GET" + ping + ping),
  },
  { name: "a head cut short by the client's end", pieces: one("GET /api/ping HTTP/1.1\r\nHost: local") },
  { name: "a body cut short by the client's end", pieces: one(post("/api/v1/nothing", "Content-Length: 10") + "abc") },
  { name: "an answered request, then half a head", pieces: one(ping + "GET /api/pi") },
  {
    name: "an authenticated body cut short by the client's end",
    pieces: (token) => [post("/api/v1/sms", keyed(token), "Content-Length: 100") + "{}"],
  },
  {
    name: "an aborted chunked upload",
    pieces: (token) => [post("/api/v1/sms/bulk", keyed(token), "Transfer-Encoding: chunked") + '10\r\n{"to":["26377'],
    options: { finish: "abort" },
  },
];

/** What must match: status lines, the headers that say something (values that vary by request left out), bodies. */
function comparable(result: RawExchange) {
  return {
    closedByServer: result.closedByServer,
    responses: result.responses.map((response) => ({
      statusLine: response.statusLine,
      headers: Object.fromEntries(
        Object.entries(response.headers)
          .filter(([name]) => name !== "date")
          .map(([name, value]) => [name, name === "x-request-id" || name.startsWith("ratelimit") ? "(varies)" : value]),
      ),
      body: response.body,
    })),
  };
}

describe("the lean path answers as node:http does", () => {
  it.each(vectors.map((vector) => [vector.name, vector] as const))("%s", async (_name, vector) => {
    const [viaLean, viaNode] = await Promise.all([
      exchange(lean.port, vector.pieces(acme.token), vector.options),
      exchange(nodeOnly.port, vector.pieces(acme.token), vector.options),
    ]);
    if (vector.options?.finish !== "abort") expect(viaNode.responses.length + (viaNode.closedByServer ? 1 : 0)).toBeGreaterThan(0);
    expect(comparable(viaLean)).toEqual(comparable(viaNode));
  });
});

describe.each([
  ["lean path", () => lean],
  ["node:http", () => nodeOnly],
])("on the %s", (_name, server) => {
  it("answers a 16 MiB declared body without a key before any of it is sent, and closes", async () => {
    const result = await exchange(server().port, [post("/api/v1/sms", "Content-Length: 16777216")]);
    expect(result.closedByServer).toBe(true);
    expect(result.responses.map((response) => response.status)).toEqual([413]);
    const description = "The request body must be at most 65536 bytes";
    expect(JSON.parse(result.responses[0].body)).toMatchObject({ error: { type: "ERR_PAYLOAD_TOO_LARGE", description } });
  });

  it("refuses a request without a key on its head, within the limit, before the body is sent", async () => {
    const result = await exchange(server().port, [post("/api/v1/sms/bulk", "Content-Length: 4194304")]);
    expect(result.responses.map((response) => [response.status, response.headers.connection])).toEqual([[401, "close"]]);
    expect(JSON.parse(result.responses[0].body)).toMatchObject({ status: "error", error: { code: "UNAUTHORIZED" } });
  });

  it("answers a head ending in bare LF with 400 at once, closing the connection", async () => {
    const result = await exchange(server().port, ["GET /api/ping HTTP/1.1\nHost: a\n\n"]);
    expect(result.closedByServer).toBe(true);
    expect(result.responses.map((response) => response.status)).toEqual([400]);
  });

  it("serves an absolute-form target by its path, whatever host it names", async () => {
    const result = await exchange(server().port, [request("GET http://evil.example/api/v1/api-tokens", keyed(acme.token))]);
    expect(result.responses.map((response) => response.status)).toEqual([200]);
    expect(JSON.stringify(result.responses[0])).not.toContain("evil.example");
  });

  it("answers OPTIONS * with a kit 400 and closes", async () => {
    const result = await exchange(server().port, [request("OPTIONS *")]);
    expect(result.closedByServer).toBe(true);
    expect(result.responses.map((response) => response.status)).toEqual([400]);
    expect(JSON.parse(result.responses[0].body)).toMatchObject({ status: "error", error: { code: "BAD_REQUEST" } });
  });

  it("counts uploads aborted mid-body, chunked or not, without logging an error", async () => {
    const before = await abortedCount(server());
    const chunked = post("/api/v1/sms/bulk", keyed(acme.token), "Transfer-Encoding: chunked") + '10\r\n{"to":["26377';
    const sized = post("/api/v1/sms/bulk", keyed(acme.token), "Content-Length: 500") + '{"to":["26377';
    for (const request of [chunked, sized]) await exchange(server().port, [request], { finish: "abort" });
    await sleep(200);
    expect(await abortedCount(server())).toBe(before + 2);
    const errors = server()
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{") && JSON.parse(line).level >= 50);
    expect(errors).toEqual([]);
  });
});

async function abortedCount(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const counts = [...text.matchAll(/^tumira_http_requests_aborted_total\{[^}]*\} (\d+)$/gm)].map((match) => Number(match[1]));
  return counts.reduce((sum, count) => sum + count, 0);
}
