// `npm run smsc`: the SMSC simulator on its own, on HOST:SMSC_SIMULATOR_PORT (system_id econet,
// netone or telecel, password "tumira"). Outcomes by the recipient's last four digits: docs/delivery.md,
// "The SMSC simulator".
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { startSmscSimulator } from "@/lib/smsc/smsc-simulator";
import { SIMULATED_OUTCOMES } from "@/lib/smsc/simulated-outcomes";
import { stopOnSignals } from "@/lib/server/start-server";

async function main() {
  const env = getEnv();
  const simulator = await startSmscSimulator({
    port: env.SMSC_SIMULATOR_PORT,
    host: env.HOST,
    tps: env.SMSC_SIMULATOR_TPS,
    dlrDelayMs: env.SMSC_SIMULATOR_DLR_DELAY_MS,
    logger,
    onSubmit: (submit) => logger.debug({ submit }, "submit_sm"),
  });
  const outcomes = Object.entries(SIMULATED_OUTCOMES).map(([digits, outcome]) => `  …${digits}  ${outcome.meaning}`);
  console.log(
    `SMSC simulator on port ${simulator.port}. Recipients ending in:\n${outcomes.join("\n")}\n  anything else: accepted, DELIVRD`,
  );
  stopOnSignals(simulator.stop);
}

main().catch((error) => {
  logger.fatal({ err: error }, "simulator failed to start");
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
