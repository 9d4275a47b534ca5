// One HTTP worker of a cluster (HTTP_PROCESSES > 1), forked by the primary (lib/server/http-workers.ts):
// serves the API's lean path and Next on the shared port. It neither migrates nor runs background
// services: the primary has done the one and runs the others (SQLite's checkpoints too). SIGTERM
// (from the primary, or SIGINT from a terminal): stop accepting, finish in-flight requests, close
// the database, exit 0.
import cluster from "node:cluster";
import { closeDatabase, leaveCheckpointsToPrimary } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { answerMetricsSnapshots } from "@/lib/metrics-cluster";
import { serveHttp, type ServeOptions } from "./http-server";
import { WORKER_OPTIONS_VARIABLE } from "./http-workers";
import { stopOnSignals } from "./start-server";

async function main() {
  logger.setBindings({ worker: cluster.worker!.id });
  leaveCheckpointsToPrimary();
  answerMetricsSnapshots();
  const options = JSON.parse(process.env[WORKER_OPTIONS_VARIABLE]!) as ServeOptions;
  const http = await serveHttp(options);
  stopOnSignals(async () => {
    await http.close();
    await closeDatabase();
  });
}

main().catch((error) => {
  logger.fatal({ err: error }, "http worker failed to start");
  process.exit(1);
});
