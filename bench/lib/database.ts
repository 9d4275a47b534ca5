// A fresh, empty database per benchmark run: a SQLite file in a temporary directory, or a new
// PostgreSQL database made through the admin URL and dropped (forcibly) afterwards.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { whileRunning } from "./cleanup";
import { parentPid, serverCpuSeconds } from "./memory";

export type Engine = "sqlite" | "postgres";
export type BenchDatabase = {
  engine: Engine;
  url: string;
  dataDir: string;
  /**
   * The database server's own CPU time so far, in seconds, when it is a PostgreSQL running on this
   * machine (every database of that server counts). Null for SQLite, which runs inside the gateway's
   * processes and is counted with them, and for a PostgreSQL this process cannot see.
   */
  serverCpuSeconds: (() => number) | null;
  drop: () => Promise<void>;
};

export const DEFAULT_POSTGRES_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

async function withAdmin<T>(adminUrl: string, use: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.end();
  }
}

/**
 * PostgreSQL forks a backend per connection from its postmaster: the backend's parent is the server.
 * Read while the connection is open: the backend exits with it.
 */
async function postgresServerCpu(adminUrl: string): Promise<(() => number) | null> {
  const postmaster = await withAdmin(adminUrl, async (admin) => {
    const { rows } = await admin.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    return parentPid(rows[0].pid);
  });
  return postmaster === null ? null : () => serverCpuSeconds(postmaster);
}

export async function createBenchDatabase(engine: Engine, postgresAdminUrl: string): Promise<BenchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tumira-bench-"));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (engine === "sqlite") {
    return {
      engine,
      url: `file:${path.join(dataDir, "bench.db")}`,
      dataDir,
      serverCpuSeconds: null,
      drop: whileRunning(async () => removeDir()),
    };
  }
  const name = `tumira_bench_${crypto.randomBytes(5).toString("hex")}`;
  await withAdmin(postgresAdminUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  const drop = whileRunning(async () => {
    await withAdmin(postgresAdminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    removeDir();
  });
  return { engine, url: url.toString(), dataDir, serverCpuSeconds: await postgresServerCpu(postgresAdminUrl), drop };
}
