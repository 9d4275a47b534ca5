// Receives mobile-originated messages from the carrier connections and stores them (lib/inbound),
// and every sweepMs stores the concatenated messages whose missing parts did not come within the
// reassembly timeout. A storage error goes back to the connection, which asks the SMSC to resend.
import type { Logger } from "@/lib/log";
import type { CarrierConnection } from "@/lib/smpp/carrier-connection";
import type { MobileOriginated } from "@/lib/smpp/mobile-originated";
import type { SmscSimulator } from "@/lib/smsc/smsc-simulator";
import { storeMobileOriginated, storeOverdueParts } from "@/lib/inbound/store-inbound";
import { claimInboundSimulations } from "@/lib/inbound/simulate-inbound";

export type InboundHandlerOptions = {
  logger: Logger;
  /** How long the parts of a concatenated message wait for the rest (INBOUND_REASSEMBLY_SECONDS). */
  reassemblyTimeoutMs: number;
  sweepMs?: number;
  /** The simulator of test traffic: it originates the sandbox's queued messages (POST /api/v1/inbound/simulate). */
  simulator?: Pick<SmscSimulator, "originate">;
  simulationPollMs?: number;
  /** True for a connection that carries test traffic only: what arrives on it came through the sandbox. */
  isTestConnection?: (connection: CarrierConnection) => boolean;
};

export class InboundHandler {
  private timer: NodeJS.Timeout | undefined;
  private simulationTimer: NodeJS.Timeout | undefined;
  private claiming: Promise<void> | null = null;
  private sweeping: Promise<void> | null = null;
  private readonly log: Logger;

  constructor(private readonly options: InboundHandlerOptions) {
    this.log = options.logger.child({ component: "inbound" });
  }

  readonly handle = async (message: MobileOriginated, connection: CarrierConnection): Promise<void> => {
    const operator = connection.config.operator;
    const mode = this.options.isTestConnection?.(connection) ? "test" : "live";
    const outcome = await storeMobileOriginated({ operator, mo: message, mode });
    if (outcome.kind === "duplicate")
      this.log.info({ operator, from: message.source }, "redelivered inbound PDU acknowledged, not stored again");
  };

  start(): void {
    const sweepMs = this.options.sweepMs ?? Math.min(30_000, Math.max(1_000, this.options.reassemblyTimeoutMs / 4));
    this.timer = setInterval(() => {
      if (this.sweeping) return;
      this.sweeping = storeOverdueParts(this.options.reassemblyTimeoutMs)
        .then((stored) => {
          if (stored.length > 0)
            this.log.warn({ count: stored.length }, "inbound messages stored incomplete: parts missing after the reassembly timeout");
        })
        .catch((error: unknown) => this.log.error({ err: error }, "inbound reassembly sweep failed"))
        .finally(() => (this.sweeping = null));
    }, sweepMs);
    const simulator = this.options.simulator;
    if (!simulator) return;
    this.simulationTimer = setInterval(() => {
      if (this.claiming) return;
      this.claiming = claimInboundSimulations()
        .then((claimed) => {
          for (const row of claimed) simulator.originate({ systemId: row.operator, from: row.from, to: row.to, message: row.body });
        })
        .catch((error: unknown) => this.log.error({ err: error }, "sandbox inbound messages not claimed"))
        .finally(() => (this.claiming = null));
    }, this.options.simulationPollMs ?? 250);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.simulationTimer);
    await Promise.all([this.sweeping, this.claiming]);
  }
}
