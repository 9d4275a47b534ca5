// Each test file gets its own fresh database: a temporary SQLite file, or (TEST_DB=postgres) a new
// PostgreSQL database created through TEST_DATABASE_URL and dropped afterwards.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { closeDatabase } from "@/lib/db/client";
import { prepareDatabase } from "@/lib/setup/prepare-database";

export type TestDatabase = { kind: "sqlite" | "postgres"; url: string; dataDir: string; drop: () => Promise<void> };

export function testDatabaseKind(): "sqlite" | "postgres" {
  return process.env.TEST_DB === "postgres" ? "postgres" : "sqlite";
}

/** Creates an empty database (no migrations applied). */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tumira-test-"));
  if (testDatabaseKind() === "sqlite") {
    return {
      kind: "sqlite",
      url: `file:${path.join(dataDir, "test.db")}`,
      dataDir,
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
  const name = `tumira_t_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind: "postgres",
    url: url.toString(),
    dataDir,
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Points this test file's process at a fresh, migrated database for the whole file. */
export function useTestDatabase(): { current: () => TestDatabase } {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createEmptyDatabase();
    process.env.DATABASE_URL = database.url;
    process.env.DATA_DIR = database.dataDir;
    resetEnvForTests();
    await prepareDatabase();
  });
  afterAll(async () => {
    await closeDatabase();
    await database?.drop();
  });
  return {
    current: () => {
      if (!database) throw new Error("useTestDatabase: the database is made in beforeAll");
      return database;
    },
  };
}
