// Who may read /metrics: open outside production, behind METRICS_TOKEN when it is set, and refused
// in production when no token is set.
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { handleApiRequest } from "@/lib/api/handle-api-request";

const saved = { NODE_ENV: process.env.NODE_ENV, METRICS_TOKEN: process.env.METRICS_TOKEN };

function configure(nodeEnv: string, token?: string) {
  (process.env as Record<string, string>).NODE_ENV = nodeEnv;
  if (token) process.env.METRICS_TOKEN = token;
  else delete process.env.METRICS_TOKEN;
  resetEnvForTests();
}

function getMetrics(authorization?: string) {
  return handleApiRequest(new Request("http://localhost/metrics", { headers: authorization ? { authorization } : {} }));
}

afterEach(() => {
  (process.env as Record<string, string | undefined>).NODE_ENV = saved.NODE_ENV;
  if (saved.METRICS_TOKEN) process.env.METRICS_TOKEN = saved.METRICS_TOKEN;
  else delete process.env.METRICS_TOKEN;
  resetEnvForTests();
});

describe("/metrics access", () => {
  it("is refused in production when METRICS_TOKEN is not set, saying why", async () => {
    configure("production");
    const response = await getMetrics();
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(/METRICS_TOKEN/);
  });

  it("is served in production with the token, and refused without it", async () => {
    configure("production", "a-metrics-token-of-some-length");
    expect((await getMetrics()).status).toBe(401);
    const response = await getMetrics("Bearer a-metrics-token-of-some-length");
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/tumira_/);
  });

  it("is open outside production when no token is set", async () => {
    configure("development");
    expect((await getMetrics()).status).toBe(200);
  });
});
