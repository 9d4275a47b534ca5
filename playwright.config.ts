import { defineConfig } from "@playwright/test";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Free ports and a fresh data directory per run, chosen once by the runner and inherited (through
// the environment) by its workers, which load this file again.
function freePort(): string {
  return execFileSync(
    process.execPath,
    ["-e", "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"],
    { encoding: "utf8" },
  );
}
process.env.E2E_PORT ??= freePort();
// The simulator's two ports: Econet is configured as a primary on the first and a standby on the second.
process.env.E2E_SMSC_PORT ??= freePort();
process.env.E2E_SMSC_SECOND_PORT ??= freePort();
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "tumira-e2e-"));

const port = Number(process.env.E2E_PORT);
const econetBind = (smscPort: string) => `smpp://econet:tumira@127.0.0.1:${smscPort}?tps=1000&window=50`;
export const e2eDataDir = process.env.E2E_DATA_DIR;
export const e2eBaseUrl = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL: e2eBaseUrl,
    viewport: { width: 1366, height: 900 },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    // A fresh database for every run; the built server (compiled here, the dashboard by `npm run build`)
    // started with plain node as `npm start` runs it, without the launcher's build check.
    command: `npm run --silent build:server && rm -rf ${e2eDataDir} && node dist/server.js`,
    url: `${e2eBaseUrl}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: e2eDataDir,
      NEXTAUTH_URL: e2eBaseUrl,
      LOG_LEVEL: "warn",
      WEBHOOK_ALLOW_PRIVATE: "true",
      SMSC_SIMULATOR: "on",
      SMSC_SIMULATOR_PORT: process.env.E2E_SMSC_PORT,
      SMSC_SIMULATOR_SECOND_PORT: process.env.E2E_SMSC_SECOND_PORT,
      SMPP_ECONET: `${econetBind(process.env.E2E_SMSC_PORT)},${econetBind(process.env.E2E_SMSC_SECOND_PORT)}`,
      SMPP_ECONET_MODE: "failover",
      SMSC_SIMULATOR_DLR_DELAY_MS: "300",
    },
    stdout: "pipe",
    stderr: "pipe",
  },
});
