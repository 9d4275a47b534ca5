import { defineConfig } from "@playwright/test";
import os from "node:os";
import path from "node:path";

const port = Number(process.env.E2E_PORT ?? 3210);
export const e2eDataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), "tumira-e2e");

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
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    },
  },
  webServer: {
    // A fresh database for every run; the built app started as `npm start` would, without the build step.
    command: `rm -rf ${e2eDataDir} && node --import tsx server.ts`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: e2eDataDir,
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: "warn",
      WEBHOOK_ALLOW_PRIVATE: "true",
      SMSC_SIMULATOR_PORT: String(port + 1),
      SMSC_SIMULATOR_DLR_DELAY_MS: "300",
    },
    stdout: "pipe",
    stderr: "pipe",
  },
});
