// `npm run worker`: the dispatcher, carrier connections, receipt handling and webhook sender as a
// process of their own, with no HTTP (scale out: N servers with RUN_DISPATCHER=false, M workers,
// one PostgreSQL). Carriers without an SMPP_<CARRIER> URL go to the simulator on
// 127.0.0.1:SMSC_SIMULATOR_PORT (`npm run smsc`, or SMSC_SIMULATOR=on to run it in this process).
// SIGTERM/SIGINT: stop claiming, let in-flight submits finish (bounded), release the rest, exit 0.
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { closeDatabase } from "@/lib/db/client";
import { prepareDatabase } from "@/lib/setup/prepare-database";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";
import { stopBackgroundServices } from "@/lib/delivery/background-services";
import { stopOnSignals } from "@/lib/server/start-server";

async function main() {
  const env = getEnv();
  await prepareDatabase();
  const services = await startDeliveryServices({ dispatcher: true, simulator: env.SMSC_SIMULATOR === "on" });
  logger.info({ services: services.map((service) => service.name) }, "worker running");
  stopOnSignals(async () => {
    await stopBackgroundServices(services);
    await closeDatabase();
    logger.info("worker stopped");
  });
}

main().catch((error) => {
  logger.fatal({ err: error }, "worker failed to start");
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
