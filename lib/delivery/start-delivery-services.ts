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
import { carrierConfigs, describeCarrier, simulatorCarrierConfig, type CarrierConfig } from "@/lib/smpp/carrier-config";
import { CarrierConnection, type CarrierConnectionOptions } from "@/lib/smpp/carrier-connection";
import { startSmscSimulator, type SmscSimulator } from "@/lib/smsc/smsc-simulator";
import { WebhookSender, type WebhookSenderOptions } from "@/lib/webhooks/webhook-sender";
import { Dispatcher, type DispatcherOptions } from "./dispatcher";
import { ReceiptHandler } from "./receipt-handler";
import { InboundHandler, type InboundHandlerOptions } from "./inbound-handler";
import { addInboundListener } from "@/lib/inbound/inbound-listeners";
import { emitMessageReceived } from "@/lib/inbound/emit-message-received";
import { applyOptOutKeyword } from "@/lib/opt-outs/opt-out-keywords";
import { ReceiptTimeoutSweep, type ReceiptTimeoutSweepOptions } from "./receipt-timeout";

/** Tuning for tests; a deployment configures through the environment only. */
export type DeliveryTuning = {
  dispatcher?: Partial<Omit<DispatcherOptions, "routes" | "logger">>;
  connections?: Partial<Omit<CarrierConnectionOptions, "onReceipt" | "logger">>;
  webhooks?: Partial<Omit<WebhookSenderOptions, "logger">>;
  receipts?: { retryMs?: number; giveUpMs?: number };
  inbound?: Partial<Omit<InboundHandlerOptions, "logger">>;
  receiptTimeout?: Partial<Omit<ReceiptTimeoutSweepOptions, "logger">>;
};

export async function startDeliveryServices(options: BackgroundOptions, tuning: DeliveryTuning = {}): Promise<BackgroundService[]> {
  const env = getEnv();
  const services: BackgroundService[] = [];
  const startSimulator = async (port: number, host?: string) => {
    const simulator = await startSmscSimulator({
      port,
      host,
      tps: env.SMSC_SIMULATOR_TPS,
      dlrDelayMs: env.SMSC_SIMULATOR_DLR_DELAY_MS,
      logger,
    });
    services.push({ name: "smsc-simulator", stop: simulator.stop });
    return simulator;
  };

  const sharedSimulator = options.simulator ? await startSimulator(env.SMSC_SIMULATOR_PORT) : null;
  const sharedSimulatorPort = sharedSimulator?.port ?? null;
  if (!options.dispatcher) return services;
  const testSimulator: SmscSimulator = await startSimulator(0, "127.0.0.1");
  const testSimulatorPort = testSimulator.port;

  const receipts = new ReceiptHandler({ logger, ...tuning.receipts });
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
  const connectionFor = (config: CarrierConfig) => {
    const key = `${config.host}:${config.port}:${config.systemId}`;
    let connection = connections.get(key);
    if (!connection)
      connections.set(
        key,
        (connection = new CarrierConnection(config, {
          onReceipt: receipts.handle,
          onMobileOriginated: inbound.handle,
          logger,
          ...tuning.connections,
        })),
      );
    return connection;
  };
  const live = carrierConfigs(env, sharedSimulatorPort ?? env.SMSC_SIMULATOR_PORT);
  const routes = operators.flatMap((operator) => [
    { operator, test: false, connection: connectionFor(live[operator]) },
    { operator, test: true, connection: connectionFor(simulatorCarrierConfig(operator, testSimulatorPort, env.SMSC_SIMULATOR_TPS)) },
  ]);
  for (const route of routes) if (route.test) testOnlyConnections.add(route.connection);
  for (const connection of connections.values()) connection.start();
  inbound.start();
  logger.info({ carriers: operators.map((operator) => `${operator}: ${describeCarrier(live[operator])}`) }, "carrier connections starting");
  services.push({
    name: "carrier-connections",
    stop: async () => {
      receipts.stop();
      await inbound.stop();
      await Promise.all([...connections.values()].map((connection) => connection.stop()));
    },
  });

  const dispatcher = new Dispatcher({ routes, logger, leaseMs: env.DELIVERY_LEASE_SECONDS * 1000, ...tuning.dispatcher });
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
