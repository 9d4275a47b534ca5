// The production server process: health, metrics, the API's 404 shape, request ids in JSON logs,
// and a graceful stop on SIGTERM.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmptyDatabase, testDatabaseKind, type TestDatabase } from "../helpers/test-database";
import { startServerProcess, type ServerProcess } from "../helpers/server-process";

let database: TestDatabase;
let server: ServerProcess;

beforeAll(async () => {
  database = await createEmptyDatabase();
  server = await startServerProcess({
    databaseUrl: database.url,
    dataDir: database.dataDir,
    env: { LOG_LEVEL: "debug", METRICS_TOKEN: "metrics-token-for-tests", SMSC_SIMULATOR: "off", RUN_DISPATCHER: "false" },
  });
});

afterAll(async () => {
  await server?.kill();
  await database?.drop();
});

describe("server", () => {
  it("answers /api/health with the database kind and a current schema", async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ status: "ok", database: testDatabaseKind(), schema: { current: true, pending: [] } });
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("serves Prometheus metrics only with the metrics token", async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: "Bearer metrics-token-for-tests" } });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toMatch(/tumira_http_requests_total\{route="\/api\/health",method="GET",status="200"\} \d+/);
    for (const name of [
      "tumira_messages_accepted_total",
      "tumira_messages_dispatched_total",
      "tumira_messages_delivered_total",
      "tumira_messages_failed_total",
      "tumira_webhook_attempts_total",
    ]) {
      expect(text).toContain(`# TYPE ${name} counter`);
    }
  });

  it("answers an unknown API path with a kit 404", async () => {
    const response = await fetch(`${server.url}/api/v1/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: "error", error: { code: "NOT_FOUND" } });
  });

  it("answers a request without a key with a kit 401 naming the Bearer scheme", async () => {
    const response = await fetch(`${server.url}/api/v1/api-tokens`);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="tumira"');
    expect(await response.json()).toMatchObject({ status: "error", error: { code: "UNAUTHORIZED" } });
  });

  it("reads the request as the Web API would: dot segments resolved, a repeated header's values joined", async () => {
    // Sent as written (fetch would resolve the dots itself): the lean path takes plain paths as they
    // are and parses any other.
    const resolved = await rawGet("/api/v1/../health", {});
    expect(resolved.status).toBe(200);
    expect(JSON.parse(resolved.body)).toMatchObject({ status: "ok" });
    // Two ids joined are no valid id, so the server makes its own, as it would for "a, b" in one header.
    const repeated = await rawGet("/api/health", { "x-request-id": ["trace-aaaa-1111", "trace-bbbb-2222"] });
    expect(repeated.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("logs JSON lines carrying the request id, and stops gracefully on SIGTERM", async () => {
    const response = await fetch(`${server.url}/api/health`, { headers: { "x-request-id": "trace-abc-123456" } });
    expect(response.headers.get("x-request-id")).toBe("trace-abc-123456");
    const code = await server.stop();
    expect(code).toBe(0);
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line));
    expect(lines.find((line) => line.requestId === "trace-abc-123456")).toMatchObject({ route: "/api/health", status: "200" });
    expect(lines.map((line) => line.msg)).toContain("shutdown complete");
  });
});

function rawGet(
  path: string,
  headers: http.OutgoingHttpHeaders,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    // Options, not a URL string, which node would parse (and resolve) before sending.
    const request = http.get({ host: "127.0.0.1", port: server.port, path, headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on("error", reject);
  });
}
