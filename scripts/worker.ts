// `npm run worker`: the dispatcher, carrier connections, receipt handling and webhook sender as a
// process of their own (scale out: N servers with RUN_DISPATCHER=false, M workers, one PostgreSQL).
// Its only HTTP is /api/health, /api/ping and /metrics on WORKER_HTTP_PORT, when that is set.
// Carriers without an SMPP_<CARRIER> URL go to the simulator on 127.0.0.1:SMSC_SIMULATOR_PORT
// (`npm run smsc`, or SMSC_SIMULATOR=on to run it in this process).
// SIGTERM/SIGINT: stop claiming, let in-flight submits finish (bounded), release the rest, exit 0.
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { closeDatabase } from "@/lib/db/client";
import { prepareDatabase } from "@/lib/setup/prepare-database";
import { warnOnAppSecretMismatch } from "@/lib/setup/check-app-secret";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";
import { stopBackgroundServices } from "@/lib/delivery/background-services";
import { stopOnSignals } from "@/lib/server/start-server";
import { serveHttp } from "@/lib/server/http-server";

async function main() {
  const env = getEnv();
  await prepareDatabase();
  await warnOnAppSecretMismatch();
  const services = await startDeliveryServices({ dispatcher: true, simulator: env.SMSC_SIMULATOR === "on" });
  const http =
    env.WORKER_HTTP_PORT === undefined ? null : await serveHttp({ dashboard: false, systemOnly: true, port: env.WORKER_HTTP_PORT });
  logger.info({ services: services.map((service) => service.name), port: http?.port }, "worker running");
  stopOnSignals(async () => {
    await stopBackgroundServices(services);
    await http?.close();
    await closeDatabase();
    logger.info("worker stopped");
  });
}

main().catch((error) => {
  logger.fatal({ err: error }, "worker failed to start");
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
