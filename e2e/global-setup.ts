// Seeds the e2e database (the running server's) through the admin CLI and the public API with the
// accounts, users and messages the specs use, and writes them to test-results/e2e-fixtures.json.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { e2eBaseUrl, e2eDataDir } from "../playwright.config";

export type E2eUser = { email: string; password: string };
export type E2eFixtures = {
  owner: E2eUser & { accountId: string };
  /** An inbound number of the owner's account, for the Inbox sandbox. */
  ownerNumber: string;
  developer: E2eUser;
  support: E2eUser;
  admin: E2eUser;
  /** An account with little money: sends are refused for balance. */
  brokeOwner: E2eUser & { accountId: string };
  /** Another account's message, for the support lookup. */
  otherAccount: { name: string; messageId: string };
  pendingSender: string;
};

export function cli(argv: string[]): Record<string, unknown> {
  const stdout = execFileSync(process.execPath, ["dist/cli.js", ...argv], {
    env: { ...process.env, DATA_DIR: e2eDataDir, DATABASE_URL: `file:${path.join(e2eDataDir, "tumira.db")}`, LOG_LEVEL: "warn" },
    encoding: "utf8",
  });
  return JSON.parse(stdout);
}

function account(name: string, balance: string, sender: string, owner: E2eUser): string {
  const created = cli([
    "accounts:create",
    "--name",
    name,
    "--currency",
    "USD",
    "--balance",
    balance,
    "--sender",
    sender,
    "--owner-email",
    owner.email,
    "--owner-password",
    owner.password,
  ]);
  return String(created.id);
}

function user(role: string, email: string, accountId?: string): E2eUser {
  const password = `e2e ${role} password`;
  cli(["users:create", "--email", email, "--password", password, "--role", role, ...(accountId ? ["--account", accountId] : [])]);
  return { email, password };
}

export default async function globalSetup(): Promise<void> {
  const owner = { email: "owner@e2e.tumira.test", password: "e2e owner password" };
  const accountId = account("E2E Ltd", "50.00", "E2E", owner);
  const pendingSender = "E2EPROMO";
  cli(["senders:add", "--account", accountId, "--sender", pendingSender, "--pending"]);
  const ownerNumber = String(cli(["numbers:assign", "--account", accountId, "--number", "+263780000950"]).number);

  const brokeOwner = { email: "owner@broke.tumira.test", password: "e2e broke owner password" };
  const brokeAccountId = account("Broke Ltd", "0.01", "BROKE", brokeOwner);

  const otherOwner = { email: "owner@other.tumira.test", password: "e2e other owner password" };
  const otherAccountId = account("Other Co", "10.00", "OTHER", otherOwner);
  const key = cli(["keys:create", "--account", otherAccountId, "--name", "seed"]);
  const sent = await fetch(`${e2eBaseUrl}/api/v1/sms`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.token}`, "content-type": "application/json" },
    body: JSON.stringify({ to: "+263772000111", message: "Your parcel is ready for collection", from: "OTHER" }),
  });
  if (sent.status !== 202) throw new Error(`seeding a message failed: ${sent.status} ${await sent.text()}`);
  const message = (await sent.json()) as { id: string };

  const fixtures: E2eFixtures = {
    owner: { ...owner, accountId },
    ownerNumber,
    developer: user("developer", "developer@e2e.tumira.test", accountId),
    support: user("support", "support@tumira.test"),
    admin: user("admin", "admin@tumira.test"),
    brokeOwner: { ...brokeOwner, accountId: brokeAccountId },
    otherAccount: { name: "Other Co", messageId: message.id },
    pendingSender,
  };
  fs.mkdirSync("test-results", { recursive: true });
  fs.writeFileSync(path.join("test-results", "e2e-fixtures.json"), JSON.stringify(fixtures, null, 2));
}
