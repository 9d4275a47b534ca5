// What the production HTTP server (lib/server/http-server.ts) hands to Next, on a real socket: a
// handler in Next's place answers with the URL and headers it was given. X-Forwarded-* and Forwarded
// count only with TRUST_PROXY; otherwise For, Host and Proto come from the connection. An
// absolute-form target reaches Next as its path (Next would redirect to the host it names); `*` never
// reaches it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpServer, type NodeHandler } from "@/lib/server/http-server";
import { exchange } from "../helpers/raw-http";

const echoNext: NodeHandler = (req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ url: req.url, headers: req.headers }));
};

const servers: http.Server[] = [];

async function listen(trustProxy: boolean): Promise<number> {
  const { server } = createHttpServer(echoNext, { trustProxy, leanPath: true });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

let untrusted: number;
let trusted: number;

beforeAll(async () => {
  untrusted = await listen(false);
  trusted = await listen(true);
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const FORWARDED = [
  "X-Forwarded-Host: evil.example",
  "X-Forwarded-Proto: https",
  "X-Forwarded-For: 203.0.113.9",
  "X-Forwarded-Port: 8443",
  "Forwarded: for=203.0.113.9;host=evil.example",
];

async function seenByNext(port: number, requestLine: string, headers: string[]): Promise<{ url: string; headers: Record<string, string> }> {
  const { responses } = await exchange(port, [[requestLine, "Host: gateway.example:3000", ...headers, "", ""].join("\r\n")]);
  expect(responses.map((response) => response.status)).toEqual([200]);
  return JSON.parse(responses[0].body);
}

describe("requests handed to Next", () => {
  it("without TRUST_PROXY, replaces forwarded headers with the connection's own address, host and scheme", async () => {
    const seen = await seenByNext(untrusted, "GET /login HTTP/1.1", FORWARDED);
    expect(seen.headers["x-forwarded-for"]).toBe("127.0.0.1");
    expect(seen.headers["x-forwarded-host"]).toBe("gateway.example:3000");
    expect(seen.headers["x-forwarded-proto"]).toBe("http");
    expect(seen.headers["x-forwarded-port"]).toBeUndefined();
    expect(seen.headers.forwarded).toBeUndefined();
  });

  it("with TRUST_PROXY, passes the proxy's forwarded headers on as sent", async () => {
    const seen = await seenByNext(trusted, "GET /login HTTP/1.1", FORWARDED);
    expect(seen.headers["x-forwarded-for"]).toBe("203.0.113.9");
    expect(seen.headers["x-forwarded-host"]).toBe("evil.example");
    expect(seen.headers["x-forwarded-proto"]).toBe("https");
    expect(seen.headers["x-forwarded-port"]).toBe("8443");
    expect(seen.headers.forwarded).toBe("for=203.0.113.9;host=evil.example");
  });

  it("gives Next an absolute-form target as its path and query, the Host as sent", async () => {
    const seen = await seenByNext(untrusted, "GET http://evil.example/messages?page=2 HTTP/1.1", []);
    expect(seen.url).toBe("/messages?page=2");
    expect(seen.headers.host).toBe("gateway.example:3000");
    expect(JSON.stringify(seen.headers)).not.toContain("evil.example");
  });

  it("answers OPTIONS * itself with a kit 400, never reaching Next", async () => {
    const { responses } = await exchange(untrusted, ["OPTIONS * HTTP/1.1\r\nHost: gateway.example\r\n\r\n"]);
    expect(responses.map((response) => response.status)).toEqual([400]);
    expect(JSON.parse(responses[0].body)).toMatchObject({ status: "error", error: { code: "BAD_REQUEST" } });
  });
});
