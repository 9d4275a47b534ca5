// `npm run smsc`: the SMSC simulator on its own, on HOST:SMSC_SIMULATOR_PORT (system_id econet,
// netone or telecel, password "tumira"). Outcomes by the recipient's last four digits: docs/delivery.md,
// "The SMSC simulator". `npm run smsc -- mo --from <number> --to <number> --message <text> [--operator
// <carrier>]` instead has a running simulator originate one mobile message to the carrier's binds.
import { parseArgs } from "node:util";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { startSmscSimulator } from "@/lib/smsc/smsc-simulator";
import { SIMULATED_OUTCOMES } from "@/lib/smsc/simulated-outcomes";
import { stopOnSignals } from "@/lib/server/start-server";
import { originateThroughSimulator } from "@/lib/smsc/originate-through-simulator";

async function originate(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { from: { type: "string" }, to: { type: "string" }, message: { type: "string" }, operator: { type: "string" } },
    strict: true,
  });
  if (!values.from || !values.to || values.message === undefined) {
    console.error(
      "Usage: npm run smsc -- mo --from <number> --to <number or short code> --message <text> [--operator econet|netone|telecel]",
    );
    process.exit(2);
  }
  const env = getEnv();
  const host = env.HOST === "0.0.0.0" || env.HOST === "::" ? "127.0.0.1" : env.HOST;
  await originateThroughSimulator({
    host,
    port: env.SMSC_SIMULATOR_PORT,
    from: values.from,
    to: values.to,
    message: values.message,
    operator: values.operator,
  });
  console.log(`Sent from ${values.from} to ${values.to} through the simulator on ${host}:${env.SMSC_SIMULATOR_PORT}.`);
}

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

const [command, ...rest] = process.argv.slice(2);
(command === "mo" ? originate(rest) : main()).catch((error) => {
  logger.fatal({ err: error }, command === "mo" ? "message not originated" : "simulator failed to start");
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
