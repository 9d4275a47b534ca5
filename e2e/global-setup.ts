// Seeds the e2e database (the running server's) through the admin CLI with the accounts and users
// the specs sign in as, and writes them to test-results/e2e-fixtures.json.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { e2eDataDir } from "../playwright.config";

export type E2eFixtures = {
  owner: { email: string; password: string; accountId: string };
};

export function cli(argv: string[]): Record<string, unknown> {
  const stdout = execFileSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...argv], {
    env: { ...process.env, DATA_DIR: e2eDataDir, DATABASE_URL: `file:${path.join(e2eDataDir, "tumira.db")}`, LOG_LEVEL: "warn" },
    encoding: "utf8",
  });
  return JSON.parse(stdout);
}

export default async function globalSetup(): Promise<void> {
  const owner = { email: "owner@e2e.tumira.test", password: "e2e owner password" };
  const account = cli(["accounts:create", "--name", "E2E Ltd", "--currency", "USD", "--balance", "50.00", "--sender", "E2E", "--owner-email", owner.email, "--owner-password", owner.password]);
  const fixtures: E2eFixtures = { owner: { ...owner, accountId: String(account.id) } };
  fs.mkdirSync("test-results", { recursive: true });
  fs.writeFileSync(path.join("test-results", "e2e-fixtures.json"), JSON.stringify(fixtures, null, 2));
}
