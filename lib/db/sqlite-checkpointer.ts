// WAL checkpoints for a SQLite database, on a worker thread with its own connection. SQLite would
// otherwise checkpoint inside whichever COMMIT crossed 1,000 WAL pages: on the writer, that is the
// event loop copying pages and fsyncing the database file while every request waits.
// Checkpoints cover the whole database, whoever wrote the pages, so one thread per server is enough:
// a cluster's HTTP workers leave them to the primary (lib/db/client.ts) and spare a thread each.
// Every CHECKPOINT_INTERVAL_MS a PASSIVE checkpoint copies what no reader still needs (it never
// blocks anyone). Under steady writes that never lets the WAL start over, so past RESTART_PAGES a
// RESTART checkpoint briefly holds writers off (the writer retries on a timer) and the WAL
// begins again from its start; journal_size_limit then trims the file.
import type Database from "better-sqlite3";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { logger } from "@/lib/log";

const CHECKPOINT_INTERVAL_MS = 100;
/** 4,096 pages of 4 KiB: 16 MiB of WAL. */
const RESTART_PAGES = 4096;
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

// Plain CommonJS evaluated by the worker: a file of its own would not survive Next's bundling.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma("busy_timeout = 5000");
const checkpoint = () => {
  try {
    const [{ log }] = db.pragma("wal_checkpoint(PASSIVE)");
    if (log > workerData.restartPages) db.pragma("wal_checkpoint(RESTART)");
  } catch (error) {
    parentPort.postMessage(String(error && error.message));
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on("message", () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export type Checkpointer = { stop: () => Promise<void> };

/**
 * Turns a writer connection's own checkpoints off: every writer of a server, whether or not its
 * process runs the checkpoint thread. The writer that starts the WAL over trims the file.
 */
export function leaveCheckpointsToThread(writer: Database.Database): void {
  writer.pragma("wal_autocheckpoint = 0");
  writer.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
}

/** Starts the checkpoint thread for `file`. */
export function startCheckpointer(file: string): Checkpointer {
  const driver = createRequire(path.join(process.cwd(), "package.json")).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file, intervalMs: CHECKPOINT_INTERVAL_MS, restartPages: RESTART_PAGES },
  });
  // A failed checkpoint is retried on the next tick; only one that keeps failing lets the WAL grow.
  worker.on("message", (error: string) => logger.warn({ file, error }, "SQLite checkpoint failed"));
  worker.unref();
  logger.debug({ file }, "SQLite checkpoints run on a thread of this process");
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    stop: async () => {
      // Referenced again: an unreferenced thread's exit would not keep the process alive to see it.
      worker.ref();
      worker.postMessage("stop");
      await exited;
    },
  };
}
