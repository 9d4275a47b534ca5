// The delivery side of a process (the server's, or `npm run worker`'s): the SMSC simulator when
// asked, one SMPP connection per carrier, the dispatcher, the receipt handler and the webhook
// sender. Test-key messages always go to a private simulator on a loopback port that only this
// process uses, apart from live traffic even when the in-process simulator plays the carriers: what
// arrives over its binds is the sandbox's, test traffic. Services stop in reverse order (start-server.ts):
// webhooks, then the dispatcher (its in-flight submits still have their connections), then the
// connections, then the simulator.
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { operators } from "@/lib/carriers/operators";
import type { BackgroundOptions, BackgroundService } from "./background-services";
import { carrierConfigs, describeCarrier, simulatorCarrierConfig, type CarrierBinds, type CarrierConfig } from "@/lib/smpp/carrier-config";
import { CarrierConnection, createCarrierLimiter, type CarrierConnectionOptions } from "@/lib/smpp/carrier-connection";
import type { ThroughputLimiter } from "@/lib/smpp/throughput-limiter";
import { startSmscSimulator, type SmscSimulator } from "@/lib/smsc/smsc-simulator";
import { WebhookSender, type WebhookSenderOptions } from "@/lib/webhooks/webhook-sender";
import { Dispatcher, type DispatcherOptions, type DispatchRoute } from "./dispatcher";
import { FailoverBinds } from "./failover-binds";
import { ReceiptHandler } from "./receipt-handler";
import { ReceiptHours } from "./hour-stats";
import { InboundHandler, type InboundHandlerOptions } from "./inbound-handler";
import { addInboundListener } from "@/lib/inbound/inbound-listeners";
import { emitMessageReceived } from "@/lib/inbound/emit-message-received";
import { applyOptOutKeyword } from "@/lib/opt-outs/opt-out-keywords";
import { ReceiptTimeoutSweep, type ReceiptTimeoutSweepOptions } from "./receipt-timeout";

/** Tuning for tests; a deployment configures through the environment only. */
export type DeliveryTuning = {
  dispatcher?: Partial<Omit<DispatcherOptions, "routes" | "logger">>;
  connections?: Partial<Omit<CarrierConnectionOptions, "onReceipt" | "logger" | "limiter">>;
  webhooks?: Partial<Omit<WebhookSenderOptions, "logger">>;
  receipts?: { retryMs?: number; giveUpMs?: number };
  inbound?: Partial<Omit<InboundHandlerOptions, "logger">>;
  receiptTimeout?: Partial<Omit<ReceiptTimeoutSweepOptions, "logger">>;
};

export async function startDeliveryServices(options: BackgroundOptions, tuning: DeliveryTuning = {}): Promise<BackgroundService[]> {
  const env = getEnv();
  const services: BackgroundService[] = [];
  const startSimulator = async (port: number, host?: string, secondPort?: number) => {
    const simulator = await startSmscSimulator({
      port,
      host,
      secondPort,
      tps: env.SMSC_SIMULATOR_TPS,
      dlrDelayMs: env.SMSC_SIMULATOR_DLR_DELAY_MS,
      logger,
    });
    services.push({ name: "smsc-simulator", stop: simulator.stop });
    return simulator;
  };

  const sharedSimulator = options.simulator
    ? await startSimulator(env.SMSC_SIMULATOR_PORT, undefined, env.SMSC_SIMULATOR_SECOND_PORT)
    : null;
  const sharedSimulatorPort = sharedSimulator?.port ?? null;
  if (!options.dispatcher) return services;
  const testSimulator: SmscSimulator = await startSimulator(0, "127.0.0.1");
  const testSimulatorPort = testSimulator.port;

  const receiptHours = new ReceiptHours();
  const receipts = new ReceiptHandler({ logger, hours: receiptHours, ...tuning.receipts });
  // Connections that carry test traffic only (set once the routes exist): a message arriving on one
  // came through the sandbox.
  const testOnlyConnections = new Set<CarrierConnection>();
  const inbound = new InboundHandler({
    logger,
    reassemblyTimeoutMs: env.INBOUND_REASSEMBLY_SECONDS * 1000,
    simulator: testSimulator,
    isTestConnection: (connection) => testOnlyConnections.has(connection),
    ...tuning.inbound,
  });
  // What follows a stored inbound message: its opt-out keyword, its message.received event.
  const removeInboundListeners = [addInboundListener(applyOptOutKeyword), addInboundListener(emitMessageReceived)];
  services.push({ name: "inbound-listeners", stop: async () => removeInboundListeners.forEach((remove) => remove()) });
  const connections = new Map<string, CarrierConnection>();
  /** A connection per distinct bind; a carrier's second bind to the same SMSC and system_id is a connection of its own. */
  const connectionFor = (config: CarrierConfig, occurrence = 0, limiter?: ThroughputLimiter) => {
    const key = `${config.host}:${config.port}:${config.systemId}#${occurrence}`;
    let connection = connections.get(key);
    if (!connection)
      connections.set(
        key,
        (connection = new CarrierConnection(config, {
          onReceipt: receipts.handle,
          onMobileOriginated: inbound.handle,
          logger,
          ...tuning.connections,
          ...(limiter ? { limiter } : {}),
        })),
      );
    return connection;
  };
  const live = carrierConfigs(env, sharedSimulatorPort ?? env.SMSC_SIMULATOR_PORT);
  const routes: DispatchRoute[] = operators.flatMap((operator) => [
    ...liveRoutes(live[operator], connectionFor),
    {
      operator,
      test: true,
      role: "primary" as const,
      bind: "simulator",
      connection: connectionFor(simulatorCarrierConfig(operator, testSimulatorPort, env.SMSC_SIMULATOR_TPS)),
    },
  ]);
  for (const route of routes) if (route.test) testOnlyConnections.add(route.connection);
  for (const connection of connections.values()) connection.start();
  inbound.start();
  const described = operators.map(
    (operator) =>
      `${operator}: ${live[operator].binds.map((bind) => `${describeCarrier(bind)}${live[operator].binds.length > 1 ? ` (${bind.role})` : ""}`).join(", ")}`,
  );
  logger.info({ carriers: described }, "carrier connections starting");
  services.push({
    name: "carrier-connections",
    stop: async () => {
      receipts.stop();
      await inbound.stop();
      await Promise.all([...connections.values()].map((connection) => connection.stop()));
    },
  });

  const dispatcher = new Dispatcher({ routes, receiptHours, logger, leaseMs: env.DELIVERY_LEASE_SECONDS * 1000, ...tuning.dispatcher });
  dispatcher.start();
  services.push({ name: "dispatcher", stop: () => dispatcher.stop() });

  const sweep = new ReceiptTimeoutSweep({ logger, timeoutMs: env.RECEIPT_TIMEOUT_HOURS * 3_600_000, ...tuning.receiptTimeout });
  sweep.start();
  services.push({ name: "receipt-timeout-sweep", stop: () => sweep.stop() });

  const webhooks = new WebhookSender({ logger, ...tuning.webhooks });
  webhooks.start();
  services.push({ name: "webhook-sender", stop: () => webhooks.stop() });
  return services;
}

/**
 * A carrier's live routes, one per bind. Shared: every bind claims, all paced by one limiter at the
 * carrier's tps. Failover: each bind paced at its own tps, and only the active one claims. Binds to
 * the same host:port are told apart in reports as host:port#2, #3.
 */
function liveRoutes(
  carrier: CarrierBinds,
  connectionFor: (config: CarrierConfig, occurrence: number, limiter?: ThroughputLimiter) => CarrierConnection,
): DispatchRoute[] {
  const limiter = carrier.mode === "shared" && carrier.binds.length > 1 ? createCarrierLimiter(carrier.tps) : undefined;
  const seen = new Map<string, number>();
  const routes = carrier.binds.map((config) => {
    const host = `${config.host}:${config.port}`;
    const occurrence = seen.get(host) ?? 0;
    seen.set(host, occurrence + 1);
    return {
      operator: carrier.operator,
      test: false,
      role: config.role,
      bind: occurrence === 0 ? host : `${host}#${occurrence + 1}`,
      connection: connectionFor(config, occurrence, limiter),
    };
  });
  if (carrier.mode !== "failover") return routes;
  const failover = new FailoverBinds(
    routes.map((route) => route.connection),
    { failoverAfterMs: carrier.failoverAfterMs, givebackHoldMs: carrier.givebackHoldMs, logger },
  );
  return routes.map((route) => ({ ...route, isActive: () => failover.isActive(route.connection) }));
}
