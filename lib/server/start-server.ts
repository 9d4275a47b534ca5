// Starts a Tumira server: database ready, background services, HTTP (API lean path + Next).
// HTTP_PROCESSES=1: all in this one process. HTTP_PROCESSES=N>1: this process is the node:cluster
// primary: it migrates and runs the background services (exactly one dispatcher, simulator and
// webhook sender) and N forked workers serve HTTP on the shared port (lib/server/http-workers.ts).
// SIGTERM/SIGINT: stop accepting, finish in-flight requests, stop background work, close the database.
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { closeDatabase, getDatabase } from "@/lib/db/client";
import { prepareDatabase } from "@/lib/setup/prepare-database";
import { warnOnAppSecretMismatch } from "@/lib/setup/check-app-secret";
import { serveHttp, type HttpServing, type ServeOptions } from "./http-server";
import { stopBackgroundServices, type BackgroundService } from "@/lib/delivery/background-services";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";

export type RunningServer = { port: number; stop: () => Promise<void> };

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const env = getEnv();
  // Next's dev server compiles on demand into .next: one process only.
  const processes = options.dev ? 1 : env.HTTP_PROCESSES;
  const { applied } = await prepareDatabase();
  if (applied.length > 0) logger.info({ applied }, "migrations applied");
  await warnOnAppSecretMismatch();

  const services: BackgroundService[] = await startDeliveryServices({
    dispatcher: env.RUN_DISPATCHER,
    // auto: only a server that dispatches needs it; servers that leave delivery to workers would share its port.
    simulator:
      env.SMSC_SIMULATOR === "on" ||
      (env.SMSC_SIMULATOR === "auto" && env.RUN_DISPATCHER && !env.SMPP_ECONET && !env.SMPP_NETONE && !env.SMPP_TELECEL),
  });
  const stopBackground = async () => {
    await stopBackgroundServices(services);
    await closeDatabase();
  };

  let http: HttpServing;
  if (processes > 1) {
    // Loaded only for a cluster: with one process nothing of node:cluster is involved.
    const { startHttpWorkers } = await import("./http-workers");
    http = await startHttpWorkers(options, processes, (error) => {
      logger.fatal({ err: error }, "no HTTP worker can start; stopping");
      // Set first: the exit code holds even if the loop runs dry before the stop settles.
      process.exitCode = 1;
      void stopBackground().finally(() => process.exit());
    });
  } else {
    http = await serveHttp(options);
  }
  logger.info(
    { port: http.port, host: options.host ?? env.HOST, database: getDatabase().kind, dashboard: options.dashboard, processes },
    "tumira listening",
  );

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      logger.info("shutting down: no new connections, finishing in-flight requests");
      await http.close();
      await stopBackground();
      logger.info("shutdown complete");
    })();
    return stopping;
  };
  return { port: http.port, stop };
}

/** Wires SIGTERM and SIGINT to a graceful stop, then exits. */
export function stopOnSignals(stop: () => Promise<void>): void {
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, "signal received");
    stop().then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
}
