// The lean path's HTTP/1.1 (lib/server/lean-connections.ts) over a real socket: requests split or
// pipelined, connections closed as asked, and whatever it leaves to node:http (chunked bodies,
// Expect, HEAD, malformed heads) answered by node:http on the same connection.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmptyDatabase, type TestDatabase } from "../helpers/test-database";
import { startServerProcess, type ServerProcess } from "../helpers/server-process";

let database: TestDatabase;
let server: ServerProcess;

beforeAll(async () => {
  database = await createEmptyDatabase();
  server = await startServerProcess({ databaseUrl: database.url, dataDir: database.dataDir, env: { SMSC_SIMULATOR: "off", RUN_DISPATCHER: "false" } });
});

afterAll(async () => {
  await server?.kill();
  await database?.drop();
});

type RawResponse = { status: number; headers: Record<string, string>; body: string };

/** Writes each piece (pausing between them), reads until the server closes, and splits the responses. */
async function exchange(pieces: string[], pauseMs = 0): Promise<RawResponse[]> {
  const socket = net.connect(server.port, "127.0.0.1");
  socket.setNoDelay(true);
  const received: Buffer[] = [];
  socket.on("data", (chunk) => received.push(chunk));
  const closed = new Promise<void>((resolve, reject) => {
    socket.on("close", () => resolve());
    socket.on("error", reject);
  });
  await new Promise((resolve) => socket.once("connect", resolve));
  for (const piece of pieces) {
    socket.write(piece);
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  await closed;
  return parseResponses(Buffer.concat(received).toString("utf8"));
}

function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.length > 0) {
    const headEnd = rest.indexOf("\r\n\r\n");
    const [statusLine, ...lines] = rest.slice(0, headEnd).split("\r\n");
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
    const status = Number(statusLine.split(" ")[1]);
    rest = rest.slice(headEnd + 4);
    let body = "";
    if (headers["transfer-encoding"] === "chunked") {
      for (;;) {
        const sizeEnd = rest.indexOf("\r\n");
        const size = parseInt(rest.slice(0, sizeEnd), 16);
        body += rest.slice(sizeEnd + 2, sizeEnd + 2 + size);
        rest = rest.slice(sizeEnd + 2 + size + 2);
        if (size === 0) break;
      }
    } else {
      const length = Number(headers["content-length"] ?? 0);
      body = rest.slice(0, length);
      rest = rest.slice(length);
    }
    // A 100 Continue is an interim response: the final one follows.
    responses.push({ status, headers, body });
  }
  return responses;
}

const get = (path: string, extra = "") => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}\r\n`;
const closing = "Connection: close\r\n";

describe("lean path HTTP/1.1", () => {
  it("answers pipelined requests in order, and closes after the one that asks", async () => {
    const responses = await exchange([get("/api/health") + get("/api/v1/nothing-here") + get("/api/ping", closing)]);
    expect(responses.map((response) => response.status)).toEqual([200, 404, 200]);
    expect(JSON.parse(responses[0].body)).toMatchObject({ status: "ok" });
    expect(JSON.parse(responses[1].body)).toMatchObject({ status: "error", error: { code: "NOT_FOUND" } });
    expect(responses[0].headers.connection).toBe("keep-alive");
    expect(responses[2].headers.connection).toBe("close");
    expect(responses[0].headers.date).toMatch(/GMT$/);
  });

  it("reads a request that arrives a few bytes at a time, body included", async () => {
    const body = JSON.stringify({ to: "263771234567", from: "ACME", message: "hi" });
    const request = `POST /api/v1/sms HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n${closing}\r\n${body}`;
    const pieces = request.match(/[\s\S]{1,7}/g)!;
    const [response] = await exchange(pieces, 2);
    // No key: the single send's legacy 401, which means the whole request was read as one.
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ status: "error" });
  });

  it("closes an HTTP/1.0 connection after its response unless it asks to be kept alive", async () => {
    const responses = await exchange(["GET /api/health HTTP/1.0\r\n\r\n"]);
    expect(responses.map((response) => response.status)).toEqual([200]);
    expect(responses[0].headers.connection).toBe("close");
  });

  it("hands a chunked body to node:http, which keeps the connection and answers what follows", async () => {
    const chunked = `POST /api/v1/api-tokens HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n5\r\n{"a":\r\n2\r\n1}\r\n0\r\n\r\n`;
    const responses = await exchange([get("/api/health") + chunked + get("/api/ping", closing)]);
    expect(responses.map((response) => response.status)).toEqual([200, 401, 200]);
    // Had the chunks been read as requests of their own, what follows would be 400s.
    expect(JSON.parse(responses[1].body)).toMatchObject({ status: "error", error: { code: "UNAUTHORIZED" } });
    expect(JSON.parse(responses[2].body)).toMatchObject({ status: "success", message: "pong" });
  });

  it("leaves Expect: 100-continue and HEAD to node:http", async () => {
    const expecting = `POST /api/v1/api-tokens HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n`;
    const responses = await exchange([expecting, "{}", `HEAD /api/health HTTP/1.1\r\nHost: localhost\r\n${closing}\r\n`], 50);
    expect(responses.map((response) => response.status)).toEqual([100, 401, 405]);
  });

  it("leaves malformed requests to node:http's parser: a bad header line, two Content-Lengths, no Host", async () => {
    const bad = [
      `GET /api/health HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n`,
      `POST /api/health HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`,
      `GET /api/health HTTP/1.1\r\n\r\n`,
    ];
    for (const request of bad) {
      const responses = await exchange([request]);
      expect(responses.map((response) => response.status)).toEqual([400]);
    }
  });

  it("answers a declared body past the server's cap with a 413 and closes without reading it", async () => {
    const responses = await exchange([`POST /api/v1/sms/bulk HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n{"to":`]);
    expect(responses.map((response) => response.status)).toEqual([413]);
    expect(JSON.parse(responses[0].body)).toMatchObject({ status: "error", error: { code: "PAYLOAD_TOO_LARGE" } });
    expect(responses[0].headers.connection).toBe("close");
  });

  // Last: it stops the server.
  it("at shutdown closes idle connections at once, and answers a request still arriving before closing its connection", async () => {
    const idle = net.connect(server.port, "127.0.0.1");
    const idleClosed = new Promise<number>((resolve) => idle.on("close", () => resolve(Date.now())));
    idle.on("error", () => undefined);
    const idleAnswered = new Promise((resolve) => idle.once("data", resolve));
    idle.write(get("/api/health"));
    await idleAnswered;

    const busy = net.connect(server.port, "127.0.0.1");
    let busyText = "";
    busy.on("data", (chunk) => (busyText += chunk.toString("utf8")));
    const busyClosed = new Promise<void>((resolve) => busy.on("close", () => resolve()));
    await new Promise((resolve) => busy.once("connect", resolve));
    const body = JSON.stringify({ name: "late" });
    busy.write(`POST /api/v1/api-tokens HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));

    const stopping = Date.now();
    const exited = server.stop();
    // Within the 15 s grace: the idle connection is not waited for.
    expect((await idleClosed) - stopping).toBeLessThan(5_000);
    busy.write(body.slice(5));
    await busyClosed;
    const [response] = parseResponses(busyText);
    expect(response.status).toBe(401);
    expect(response.headers.connection).toBe("close");
    expect(await exited).toBe(0);
  });
});
