// `npm run smsc`: the SMSC simulator on its own, on HOST:SMSC_SIMULATOR_PORT (system_id econet,
// netone or telecel, password "tumira"). Outcomes by the recipient's last four digits: docs/delivery.md,
// "The SMSC simulator". `npm run smsc -- mo --from <number> --to <number> --message <text> [--operator
// <carrier>]` instead has a running simulator originate one mobile message to the carrier's binds.
// With SMSC_SIMULATOR_SECOND_PORT it also listens there, as a carrier's second host. While it runs,
// a line `drop <system_id> [port] [seconds]` on its standard input closes that system_id's binds (on
// that port only, when given) and refuses new ones there for that many seconds.
import readline from "node:readline";
import { parseArgs } from "node:util";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { startSmscSimulator } from "@/lib/smsc/smsc-simulator";
import { SIMULATED_OUTCOMES } from "@/lib/smsc/simulated-outcomes";
import { stopOnSignals } from "@/lib/server/start-server";
import { originateThroughSimulator } from "@/lib/smsc/originate-through-simulator";
import { operators } from "@/lib/carriers/operators";
import { parseMsisdn } from "@/lib/messages/msisdn";

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
  // The simulator answers both of these ESME_RINVSRCADR, which names neither the option nor the fix.
  if (values.operator !== undefined && !(operators as readonly string[]).includes(values.operator)) {
    console.error(`--operator must be one of ${operators.join(", ")}`);
    process.exit(2);
  }
  if (values.operator === undefined && !parseMsisdn(values.from).ok) {
    console.error(`--from ${values.from} is not a Zimbabwe mobile number, so it names no carrier: add --operator ${operators.join("|")}`);
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
  }).catch((error: unknown) => {
    // Nothing listens there: most often a simulator started on another SMSC_SIMULATOR_PORT, or none running.
    if ((error as NodeJS.ErrnoException).code !== "ECONNREFUSED") throw error;
    console.error(
      `No SMSC simulator answers on ${host}:${env.SMSC_SIMULATOR_PORT}: start Tumira (npm start) or the simulator alone (npm run smsc), or set SMSC_SIMULATOR_PORT to the port it listens on.`,
    );
    process.exit(1);
  });
  console.log(`Sent from ${values.from} to ${values.to} through the simulator on ${host}:${env.SMSC_SIMULATOR_PORT}.`);
}

async function main() {
  const env = getEnv();
  const simulator = await startSmscSimulator({
    port: env.SMSC_SIMULATOR_PORT,
    host: env.HOST,
    secondPort: env.SMSC_SIMULATOR_SECOND_PORT,
    tps: env.SMSC_SIMULATOR_TPS,
    dlrDelayMs: env.SMSC_SIMULATOR_DLR_DELAY_MS,
    logger,
    onSubmit: (submit) => logger.debug({ submit }, "submit_sm"),
  });
  const outcomes = Object.entries(SIMULATED_OUTCOMES).map(([digits, outcome]) => `  …${digits}  ${outcome.meaning}`);
  const ports = simulator.secondPort === null ? `port ${simulator.port}` : `ports ${simulator.port} and ${simulator.secondPort}`;
  console.log(`SMSC simulator on ${ports}. Recipients ending in:\n${outcomes.join("\n")}\n  anything else: accepted, DELIVRD`);
  console.log("Type `drop <system_id> [port] [seconds]` to drop its binds and refuse new ones for a while.");
  readline.createInterface({ input: process.stdin }).on("line", (line) => {
    const [command, systemId, port, seconds] = line.trim().split(/\s+/);
    if (command !== "drop" || !systemId || (port && !/^\d+$/.test(port)) || (seconds && !/^\d+$/.test(seconds))) {
      if (line.trim()) console.log("Usage: drop <system_id> [port] [seconds]");
      return;
    }
    const closed = simulator.dropBinds(systemId, { port: port ? Number(port) : undefined, refuseForMs: Number(seconds ?? 0) * 1000 });
    console.log(
      `Dropped ${closed} bind(s) of ${systemId}${port ? ` on port ${port}` : ""}${seconds ? `; refusing new ones for ${seconds} s` : ""}.`,
    );
  });
  stopOnSignals(simulator.stop);
}

const [command, ...rest] = process.argv.slice(2);
(command === "mo" ? originate(rest) : main()).catch((error) => {
  logger.fatal({ err: error }, command === "mo" ? "message not originated" : "simulator failed to start");
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
