// Starts a Tumira process: database ready, background services, HTTP (API lean path + Next).
// SIGTERM/SIGINT: stop accepting, finish in-flight requests, stop background work, close the database.
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { closeDatabase, getDatabase } from "@/lib/db/client";
import { prepareDatabase } from "@/lib/db/prepare-database";
import { createHttpServer, type NodeHandler } from "./http-server";
import { stopBackgroundServices, type BackgroundService } from "./background";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";

export type StartOptions = {
  /** Serve the dashboard through Next (production build unless dev). */
  dashboard: boolean;
  dev?: boolean;
  port?: number;
  host?: string;
};

export type RunningServer = { server: http.Server; port: number; stop: () => Promise<void> };

const SHUTDOWN_GRACE_MS = 15_000;

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const env = getEnv();
  const { applied } = await prepareDatabase();
  if (applied.length > 0) logger.info({ applied }, "migrations applied");

  let nextHandler: NodeHandler | null = null;
  let closeNext: (() => Promise<void>) | undefined;
  if (options.dashboard) {
    const { default: next } = await import("next");
    const app = next({ dev: options.dev ?? false, dir: process.cwd(), hostname: options.host ?? env.HOST, port: options.port ?? env.PORT });
    await app.prepare();
    nextHandler = app.getRequestHandler();
    closeNext = () => app.close();
  }

  const services: BackgroundService[] = await startDeliveryServices({
    dispatcher: env.RUN_DISPATCHER,
    simulator: env.SMSC_SIMULATOR === "on" || (env.SMSC_SIMULATOR === "auto" && !env.SMPP_ECONET && !env.SMPP_NETONE && !env.SMPP_TELECEL),
  });

  const server = createHttpServer(nextHandler, { trustProxy: env.TRUST_PROXY });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? env.PORT, options.host ?? env.HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, host: options.host ?? env.HOST, database: getDatabase().kind, dashboard: options.dashboard }, "tumira listening");

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      logger.info("shutting down: no new connections, finishing in-flight requests");
      await closeHttpServer(server);
      await stopBackgroundServices(services);
      await closeNext?.().catch(() => undefined);
      await closeDatabase();
      logger.info("shutdown complete");
    })();
    return stopping;
  };
  return { server, port, stop };
}

/** Resolves when every in-flight request has finished (or the grace period ran out). */
function closeHttpServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearTimeout(force);
      clearInterval(idle);
      resolve();
    });
    server.closeIdleConnections();
  });
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
