// lib/server/lean-connections.ts on a real socket, with answers no route gives: a header that would
// split the response, and a streamed body that fails after its head was written.
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiResponse } from "@/lib/api/respond";
import { serveLeanConnections } from "@/lib/server/lean-connections";

let server: http.Server;
let port: number;
const failures: unknown[] = [];

function* failingChunks(): Generator<string> {
  yield '{"items":[';
  throw new Error("the body's source failed");
}

beforeAll(async () => {
  server = http.createServer((_req, res) => res.end("node:http"));
  serveLeanConnections(server, {
    accepts: (_method, target) => target.startsWith("/lean"),
    answer: async ({ target }) => {
      if (target === "/lean/split") return new ApiResponse(200, "{}", { "x-note": "a\r\nset-cookie: stolen=1" });
      if (target === "/lean/stream") return new ApiResponse(200, failingChunks());
      return new ApiResponse(200, "{}");
    },
    failed: (error) => {
      failures.push(error);
      return new ApiResponse(500, '{"status":"error"}');
    },
    unreadBodyLimit: 1024,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends one request and reads until the server closes the connection. */
function exchange(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString("latin1")));
    socket.on("close", () => resolve(text));
    socket.on("error", reject);
  });
}

describe("serveLeanConnections", () => {
  it("answers 500 instead of writing a header value with a line break", async () => {
    const text = await exchange("GET /lean/split HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(text).toMatch(/^HTTP\/1\.1 500 /);
    expect(text.toLowerCase()).not.toContain("set-cookie");
    expect(failures.length).toBeGreaterThan(0);
  });

  it("cuts the connection when a streamed body fails after its head, leaving the chunked body unterminated", async () => {
    const text = await exchange("GET /lean/stream HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toContain("Transfer-Encoding: chunked");
    expect(text).not.toContain("\r\n0\r\n\r\n");
    expect(String(failures.at(-1))).toContain("the body's source failed");
  });

  it("hands a path it does not take to node:http on the same connection", async () => {
    const text = await exchange("GET /lean/ok HTTP/1.1\r\nHost: x\r\n\r\nGET /dashboard HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(text.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    expect(text.endsWith("node:http")).toBe(true);
  });
});
