// Revocation is immediate across processes: two server processes on the same database (the same
// PostgreSQL, or the same SQLite file), a key revoked through one is refused by the other on the very
// next request. No process may cache a key past its revocation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeApiKey } from "@/lib/api/keys/revoke-api-key";
import { createApiKey } from "@/lib/api/keys/create-api-key";
import { useTestDatabase } from "../helpers/test-database";
import { callApi, expectKitError, seedAccount, startApiServer, type SeededAccount } from "../helpers/api-test-server";
import type { ServerProcess } from "../helpers/server-process";

const database = useTestDatabase();
let processA: ServerProcess;
let processB: ServerProcess;
let account: SeededAccount;

beforeAll(async () => {
  [processA, processB] = await Promise.all([startApiServer(database.current()), startApiServer(database.current())]);
  account = await seedAccount();
});

afterAll(async () => {
  await Promise.all([processA?.kill(), processB?.kill()]);
});

const newKey = (name: string) => createApiKey({ accountId: account.accountId, name, actor: "test" });

describe("revocation across processes", () => {
  it("a key revoked through process A is refused by process B on its next request", async () => {
    const key = await newKey("doomed");
    // Both processes have authenticated (and would have cached, if they cached) the key.
    for (let i = 0; i < 3; i++) {
      expect((await callApi(processA.url, "GET", "/api/v1/api-tokens", { token: key.token })).status).toBe(200);
      expect((await callApi(processB.url, "GET", "/api/v1/api-tokens", { token: key.token })).status).toBe(200);
    }
    const revoked = await callApi(processA.url, "DELETE", `/api/v1/api-tokens/${key.id}`, { token: account.token });
    expect(revoked.status).toBe(200);
    expectKitError(await callApi(processB.url, "GET", "/api/v1/api-tokens", { token: key.token }), 401, "UNAUTHORIZED");
    expectKitError(await callApi(processA.url, "GET", "/api/v1/api-tokens", { token: key.token }), 401, "UNAUTHORIZED");
    // The revoking key itself is untouched in both.
    expect((await callApi(processB.url, "GET", "/api/v1/api-tokens", { token: account.token })).status).toBe(200);
  });

  it("a key revoking itself through B is refused by A at once", async () => {
    const key = await newKey("self");
    expect((await callApi(processA.url, "GET", "/api/v1/api-tokens", { token: key.token })).status).toBe(200);
    expect((await callApi(processB.url, "DELETE", `/api/v1/api-tokens/${key.id}`, { token: key.token })).status).toBe(200);
    expectKitError(await callApi(processA.url, "POST", "/api/v1/api-tokens", { token: key.token, body: { name: "x" } }), 401, "UNAUTHORIZED");
  });

  it("a revoke from the dashboard (another process again) is seen by both servers on the next request", async () => {
    const key = await newKey("dashboard");
    expect((await callApi(processA.url, "GET", "/api/v1/api-tokens", { token: key.token })).status).toBe(200);
    expect((await callApi(processB.url, "GET", "/api/v1/api-tokens", { token: key.token })).status).toBe(200);
    expect(await revokeApiKey({ accountId: account.accountId, keyId: key.id, actor: "user:test" })).toBe(true);
    expectKitError(await callApi(processA.url, "GET", "/api/v1/api-tokens", { token: key.token }), 401, "UNAUTHORIZED");
    expectKitError(await callApi(processB.url, "GET", "/api/v1/api-tokens", { token: key.token }), 401, "UNAUTHORIZED");
  });

  it("under a stream of requests, no request after the revoke succeeds in either process", async () => {
    const key = await newKey("busy");
    let revokedAt = 0;
    const results: { at: number; status: number }[] = [];
    const hammer = async (url: string) => {
      for (let i = 0; i < 40; i++) {
        const sentAt = performance.now();
        const call = await callApi(url, "GET", "/api/v1/api-tokens", { token: key.token });
        results.push({ at: sentAt, status: call.status });
        if (i === 10 && url === processA.url) {
          await callApi(processA.url, "DELETE", `/api/v1/api-tokens/${key.id}`, { token: account.token });
          revokedAt = performance.now();
        }
      }
    };
    await Promise.all([hammer(processA.url), hammer(processB.url)]);
    expect(revokedAt).toBeGreaterThan(0);
    const after = results.filter((result) => result.at > revokedAt);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((result) => result.status === 401)).toBe(true);
    expect(results.some((result) => result.status === 200)).toBe(true);
  });
});
