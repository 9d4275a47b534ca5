// Over-the-wire API tests: a fresh database shared by this test file (for seeding and inspecting)
// and a real server process on it, plus a small fetch wrapper that returns status, headers and JSON.
import { afterAll, beforeAll, expect } from "vitest";
import { createAccount } from "@/lib/accounts/create-account";
import { createApiKey } from "@/lib/keys/create-api-key";
import type { KeyMode } from "@/lib/keys/token";
import { kitErrorSchema, legacyErrorSchema } from "@/lib/api/response-schemas";
import { useTestDatabase, type TestDatabase } from "./test-database";
import { startServerProcess, type ServerProcess } from "./server-process";

export const QUIET_SERVER_ENV = { SMSC_SIMULATOR: "off", RUN_DISPATCHER: "false" };

export type ApiCaller = (method: string, path: string, options?: CallOptions) => Promise<ApiCall>;

export function useApiServer(env: Record<string, string> = {}): { url: () => string; database: () => TestDatabase; api: ApiCaller } {
  const database = useTestDatabase();
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    server = await startApiServer(database.current(), env);
  });
  afterAll(async () => {
    await server?.kill();
  });
  const url = () => {
    if (!server) throw new Error("useApiServer: the server starts in beforeAll");
    return server.url;
  };
  return { url, database: database.current, api: (method, path, options) => callApi(url(), method, path, options) };
}

export function startApiServer(database: TestDatabase, env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServerProcess({ databaseUrl: database.url, dataDir: database.dataDir, env: { ...QUIET_SERVER_ENV, ...env } });
}

export type SeededAccount = { accountId: string; keyId: string; token: string; currency: string };

/** An account with a balance (ten-thousandths), approved sender ids, and one API key. */
export async function seedAccount(
  options: { name?: string; balance?: bigint; senders?: string[]; mode?: KeyMode } = {},
): Promise<SeededAccount> {
  const account = await createAccount({
    name: options.name ?? "Acme",
    currency: "USD",
    openingBalance: options.balance ?? 1_000_000n,
    senders: options.senders ?? ["ACME"],
    actor: "test",
  });
  const key = await createApiKey({ accountId: account.id, name: "first key", mode: options.mode ?? "live", actor: "test" });
  return { accountId: account.id, keyId: key.id, token: key.token, currency: account.currency };
}

export type ApiCall = { status: number; headers: Headers; text: string; body: any };
export type CallOptions = { token?: string; body?: unknown; headers?: Record<string, string> };

function requestBody(body: unknown): string | Uint8Array<ArrayBuffer> | undefined {
  if (body === undefined || typeof body === "string") return body;
  return body instanceof Uint8Array ? new Uint8Array(body) : JSON.stringify(body);
}

/** One HTTP request; `body` is sent as JSON unless it is already a string or bytes. */
export async function callApi(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<ApiCall> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === "content-type")) {
    headers["content-type"] = "application/json";
  }
  const response = await fetch(baseUrl + path, {
    method,
    headers,
    body: requestBody(options.body),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** Asserts the status and an error body of exactly the kit shape (spec 7.2) with this code. */
export function expectKitError(call: ApiCall, status: number, code: string): void {
  expect(call.status).toBe(status);
  expect(call.headers.get("content-type")).toMatch(/^application\/json/);
  expect(kitErrorSchema.strict().parse(call.body).error.code).toBe(code);
}

/** Asserts the status and an error body of exactly the legacy shape (spec 7.1) with this type. */
export function expectLegacyError(call: ApiCall, status: number, type: string): void {
  expect(call.status).toBe(status);
  expect(call.headers.get("content-type")).toMatch(/^application\/json/);
  expect(legacyErrorSchema.strict().parse(call.body).error.type).toBe(type);
}
