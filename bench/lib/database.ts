// A fresh, empty database per benchmark run: a SQLite file in a temporary directory, or a new
// PostgreSQL database made through the admin URL and dropped (forcibly) afterwards.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { whileRunning } from "./cleanup";

export type Engine = "sqlite" | "postgres";
export type BenchDatabase = { engine: Engine; url: string; dataDir: string; drop: () => Promise<void> };

export const DEFAULT_POSTGRES_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

async function withAdmin(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

export async function createBenchDatabase(engine: Engine, postgresAdminUrl: string): Promise<BenchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tumira-bench-"));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (engine === "sqlite") {
    return { engine, url: `file:${path.join(dataDir, "bench.db")}`, dataDir, drop: whileRunning(async () => removeDir()) };
  }
  const name = `tumira_bench_${crypto.randomBytes(5).toString("hex")}`;
  await withAdmin(postgresAdminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  const drop = whileRunning(async () => {
    await withAdmin(postgresAdminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    removeDir();
  });
  return { engine, url: url.toString(), dataDir, drop };
}
