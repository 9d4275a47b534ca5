// The process-wide bound on request body memory (HTTP_BODY_MEMORY_MB, lib/api/body-memory.ts), over
// raw sockets, on the lean path and on node:http (HTTP_LEAN_PATH=false) alike: slow authenticated
// bulk uploads hold their declared lengths; one that would go past the budget is answered 503 with
// Retry-After on its head, its body never read; a chunked upload is cut off with 503 when the budget
// runs out; small requests still pass; the process stays up, and the budget frees when the uploads end.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccount, startApiServer, type SeededAccount } from "../helpers/api-test-server";
import { useTestDatabase } from "../helpers/test-database";
import type { ServerProcess } from "../helpers/server-process";
import { parseResponses, sleep, type RawResponse } from "../helpers/raw-http";

const database = useTestDatabase();
const MIB = 1024 * 1024;
const BUDGET_MB = 8;
/** Two of these fit in the budget at once; a third does not. */
const UPLOAD = 3 * MIB;
let acme: SeededAccount;
const servers: Record<string, ServerProcess> = {};

beforeAll(async () => {
  acme = await seedAccount({ name: "Acme", senders: ["ACME"] });
  // One after the other: both migrate the one database at start.
  servers.lean = await startApiServer(database.current(), { HTTP_BODY_MEMORY_MB: String(BUDGET_MB) });
  servers["node:http"] = await startApiServer(database.current(), { HTTP_BODY_MEMORY_MB: String(BUDGET_MB), HTTP_LEAN_PATH: "false" });
}, 120_000);

afterAll(async () => {
  for (const server of Object.values(servers)) await server.kill();
});

/** A client on a raw socket: writes when told, and collects what the server sends until it closes. */
class RawClient {
  private received = "";
  closed = false;
  private readonly socket: net.Socket;
  readonly connected: Promise<void>;

  constructor(port: number) {
    this.socket = net.connect(port, "127.0.0.1");
    this.socket.setNoDelay(true);
    this.socket.on("data", (chunk) => (this.received += chunk.toString("latin1")));
    this.socket.on("error", () => undefined);
    this.socket.on("close", () => (this.closed = true));
    this.connected = new Promise((resolve) => this.socket.once("connect", () => resolve()));
  }

  async write(text: string): Promise<void> {
    if (this.closed) return;
    if (!this.socket.write(text, "latin1")) await new Promise((resolve) => this.socket.once("drain", resolve));
  }

  /** The whole responses received so far. */
  responses(): RawResponse[] {
    return parseResponses(this.received).filter((response) => response.status > 0);
  }

  /** Resolves with the first response once it has come whole, or null after `ms`. */
  async response(ms = 10_000): Promise<RawResponse | null> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const [first] = this.responses();
      const framed =
        first && (first.headers["content-length"] === undefined || first.body.length >= Number(first.headers["content-length"]));
      if (first && framed) return first;
      await sleep(20);
    }
    return null;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

const bulkHead = (length: number | "chunked", token: string) =>
  [
    "POST /api/v1/sms/bulk HTTP/1.1",
    "Host: localhost",
    `Authorization: Bearer ${token}`,
    "Content-Type: application/json",
    length === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${length}`,
    "",
    "",
  ].join("\r\n");

async function startUpload(port: number, length: number): Promise<RawClient> {
  const client = new RawClient(port);
  await client.connected;
  await client.write(bulkHead(length, acme.token) + "x".repeat(1024));
  return client;
}

async function ping(port: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/api/ping`);
  return response.status;
}

describe.each(["lean", "node:http"])("body memory on the %s path", (path) => {
  it("refuses on the head the upload the budget cannot hold, lets small requests through, and frees the budget when uploads end", async () => {
    const { port } = servers[path];
    const uploads = await Promise.all([1, 2, 3, 4, 5, 6].map(() => startUpload(port, UPLOAD)));
    // Two fit (6 of 8 MiB); the other four are answered at once, on their heads alone.
    await sleep(300);
    const refused = await Promise.all(uploads.map((upload) => upload.response(3_000)));
    const answered = refused.filter((response): response is RawResponse => response !== null);
    expect(answered.map((response) => response.status)).toEqual([503, 503, 503, 503]);
    for (const response of answered) {
      expect(response.headers["retry-after"]).toBe("1");
      expect(response.headers.connection).toBe("close");
      expect(JSON.parse(response.body)).toMatchObject({ status: "error", error: { code: "SERVICE_UNAVAILABLE" } });
    }
    const held = uploads.filter((_, index) => refused[index] === null);
    expect(held).toHaveLength(2);

    // The process is up, and a small body still fits in what is left.
    expect(await ping(port)).toBe(200);
    const small = await fetch(`http://127.0.0.1:${port}/api/v1/sms`, {
      method: "POST",
      headers: { authorization: `Bearer ${acme.token}`, "content-type": "application/json" },
      body: JSON.stringify({ to: "not a number", from: "ACME", message: "hi" }),
    });
    expect(small.status).toBe(400);

    // A chunked upload is counted as it arrives: cut off with 503 once the last 2 MiB are taken.
    const chunked = new RawClient(port);
    await chunked.connected;
    await chunked.write(bulkHead("chunked", acme.token));
    const piece = "y".repeat(256 * 1024);
    for (let sent = 0; sent < UPLOAD && !chunked.closed && chunked.responses().length === 0; sent += piece.length) {
      await chunked.write(`${piece.length.toString(16)}\r\n${piece}\r\n`);
      await sleep(20);
    }
    const cutOff = await chunked.response();
    expect(cutOff?.status).toBe(503);
    expect(cutOff?.headers["retry-after"]).toBe("1");
    chunked.destroy();

    // The held uploads end: each is read whole and answered (not JSON: 400), and their memory is free again.
    for (const upload of held) await upload.write("x".repeat(UPLOAD - 1024));
    const finished = await Promise.all(held.map((upload) => upload.response()));
    expect(finished.map((response) => response?.status)).toEqual([400, 400]);
    for (const upload of uploads) upload.destroy();

    const after = await Promise.all([1, 2].map(() => startUpload(port, UPLOAD)));
    for (const upload of after) await upload.write("x".repeat(UPLOAD - 1024));
    const afterAnswers = await Promise.all(after.map((upload) => upload.response()));
    expect(afterAnswers.map((response) => response?.status)).toEqual([400, 400]);
    for (const upload of after) upload.destroy();
    expect(await ping(port)).toBe(200);
  });
});
