// How the first person signs in to a new server, over real processes running the built JavaScript:
// `npm start` as a fresh clone runs it (scripts/launch.cjs, NODE_ENV unset) seeds the Demo account
// and prints its owner's password; a deployment (NODE_ENV=production) gets no demo, is told to
// create the first platform admin with the CLI, and the CLI does.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/auth/password";
import { openSql, type Sql } from "@/lib/db/sql";
import { DIST_DIR } from "@/scripts/build-server";
import { createEmptyDatabase, type TestDatabase } from "../helpers/test-database";
import { startServerProcess, type ServerProcess } from "../helpers/server-process";
import { waitFor } from "../helpers/delivery";

const run = promisify(execFile);
const ADMIN_HINT = "npm run cli -- users:create-admin --email";

const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function emptyDatabase(): Promise<{ database: TestDatabase; sql: Sql }> {
  const database = await createEmptyDatabase();
  cleanups.push(() => database.drop());
  const sql = openSql(database.url);
  cleanups.push(() => sql.close());
  return { database, sql };
}

async function start(
  database: TestDatabase,
  options: { script?: string; args?: string[]; env: Record<string, string | undefined> },
): Promise<ServerProcess> {
  const server = await startServerProcess({ databaseUrl: database.url, dataDir: database.dataDir, ...options });
  cleanups.push(() => server.kill());
  // Printed once the server listens and the first login is prepared.
  await waitFor(async () => printed(server).includes("Tumira is running at"), "the server's first lines");
  return server;
}

/** The part of the output that is not a JSON log line: what a person reads. */
function printed(server: ServerProcess): string {
  return server
    .output()
    .split("\n")
    .filter((line) => !line.startsWith("{"))
    .join("\n");
}

describe("first login", () => {
  it("npm start without NODE_ENV serves production with a Demo account whose printed password signs its owner in", async () => {
    const { database, sql } = await emptyDatabase();
    const server = await start(database, {
      script: "scripts/launch.cjs",
      args: ["server", "--api-only"],
      env: { NODE_ENV: undefined, SEED_DEMO: undefined, SMSC_SIMULATOR: "off", RUN_DISPATCHER: "false" },
    });
    // Production: /metrics without a token configured is refused.
    expect((await fetch(`${server.url}/metrics`)).status).toBe(403);
    const password = printed(server).match(/^ +password +(\S+)$/m)?.[1];
    expect(printed(server)).toContain("A demo account was created");
    expect(password).toBeDefined();
    // --api-only serves no dashboard, so the key is made with the CLI.
    expect(printed(server)).toMatch(/Create your first API key with: npm run cli -- keys:create --account \S+ --name first/);
    expect(printed(server)).not.toContain("/dashboard/keys");
    const accounts = await sql.all<{ name: string; balance: unknown }>(`SELECT "name", "balance" FROM "Account"`);
    expect(accounts.map((account) => [account.name, BigInt(account.balance as number)])).toEqual([["Demo", 1_000_000n]]);
    const owner = await sql.get<{ role: string; passwordHash: string }>(`SELECT "role", "passwordHash" FROM "User" WHERE "email" = ?`, [
      "owner@demo.tumira.local",
    ]);
    expect(owner?.role).toBe("owner");
    expect(await verifyPassword(password!, owner!.passwordHash)).toBe(true);
  });

  it("NODE_ENV=production: no demo; the server says how to create the first admin, the CLI creates it, then the server stops asking", async () => {
    const { database, sql } = await emptyDatabase();
    const env: Record<string, string | undefined> = {
      NODE_ENV: "production",
      SEED_DEMO: undefined,
      SMSC_SIMULATOR: "off",
      RUN_DISPATCHER: "false",
    };
    const first = await start(database, { env });
    expect(printed(first)).toContain(ADMIN_HINT);
    expect(printed(first)).not.toContain("demo");
    expect(await sql.all(`SELECT "id" FROM "Account"`)).toEqual([]);
    expect(await first.stop()).toBe(0);

    const { stdout } = await run(process.execPath, [path.join(DIST_DIR, "cli.js"), "users:create-admin", "--email", "Admin@First.test"], {
      env: { ...process.env, ...env, DATABASE_URL: database.url, DATA_DIR: database.dataDir },
    });
    const admin = JSON.parse(stdout);
    expect(admin).toEqual({ id: expect.any(String), email: "admin@first.test", role: "admin", password: expect.any(String) });
    const stored = await sql.get<{ role: string; accountId: string | null; passwordHash: string }>(
      `SELECT "role", "accountId", "passwordHash" FROM "User" WHERE "id" = ?`,
      [admin.id],
    );
    expect(stored).toMatchObject({ role: "admin", accountId: null });
    expect(stored!.passwordHash).not.toContain(admin.password);
    expect(await verifyPassword(admin.password, stored!.passwordHash)).toBe(true);

    const second = await start(database, { env });
    expect(printed(second)).not.toContain(ADMIN_HINT);
    expect(await sql.all(`SELECT "id" FROM "Account"`)).toEqual([]);
  });
});
