// The lean path's HTTP/1.1 (lib/server/lean-connections.ts) over a real socket: requests split or
// pipelined, connections closed as asked, and whatever it leaves to node:http (chunked bodies,
// Expect, HEAD, malformed heads) answered by node:http on the same connection.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccount, startApiServer, type SeededAccount } from "../helpers/api-test-server";
import { useTestDatabase } from "../helpers/test-database";
import type { ServerProcess } from "../helpers/server-process";
import { exchangeUntilClosed, parseResponses } from "../helpers/raw-http";

const database = useTestDatabase();
let server: ServerProcess;
let acme: SeededAccount;

beforeAll(async () => {
  acme = await seedAccount({ name: "Acme", senders: ["ACME"] });
  server = await startApiServer(database.current());
});

afterAll(async () => {
  await server?.kill();
});

const exchange = (pieces: string[], pauseMs = 0) => exchangeUntilClosed(server.port, pieces, pauseMs);

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
    const body = JSON.stringify({ to: "not a number", from: "ACME", message: "hi" });
    const headers = `Authorization: Bearer ${acme.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n${closing}`;
    const request = `POST /api/v1/sms HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n${body}`;
    const pieces = request.match(/[\s\S]{1,7}/g)!;
    const [response] = await exchange(pieces, 2);
    // The validation error names `to`: the key and the whole body were read as one request.
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).error.validation_errors.map((error: { field: string }) => error.field)).toEqual(["to"]);
  });

  it("closes an HTTP/1.0 connection after its response unless it asks to be kept alive", async () => {
    const responses = await exchange(["GET /api/health HTTP/1.0\r\n\r\n"]);
    expect(responses.map((response) => response.status)).toEqual([200]);
    expect(responses[0].headers.connection).toBe("close");
  });

  it("hands a chunked body to node:http, which keeps the connection and answers what follows", async () => {
    const chunks = `5\r\n{"a":\r\n2\r\n1}\r\n0\r\n\r\n`;
    const chunked = `POST /api/v1/api-tokens HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n${chunks}`;
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

  it("answers a declared body past the endpoint's limit with a 413 and closes without reading it", async () => {
    const head = `POST /api/v1/sms/bulk HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`;
    const responses = await exchange([`${head}{"to":`]);
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
    const headers = `Authorization: Bearer ${acme.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n`;
    busy.write(`POST /api/v1/api-tokens HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n${body.slice(0, 5)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));

    const stopping = Date.now();
    const exited = server.stop();
    // Within the 15 s grace: the idle connection is not waited for.
    expect((await idleClosed) - stopping).toBeLessThan(5_000);
    busy.write(body.slice(5));
    await busyClosed;
    const [response] = parseResponses(busyText);
    expect(response.status).toBe(201);
    expect(response.headers.connection).toBe("close");
    expect(await exited).toBe(0);
  });
});
