// Receives mobile-originated messages from the carrier connections and stores them (lib/inbound),
// and every sweepMs stores the concatenated messages whose missing parts did not come within the
// reassembly timeout. A storage error goes back to the connection, which asks the SMSC to resend.
import type { Logger } from "@/lib/log";
import type { CarrierConnection } from "@/lib/smpp/carrier-connection";
import type { MobileOriginated } from "@/lib/smpp/mobile-originated";
import { storeMobileOriginated, storeOverdueParts } from "@/lib/inbound/store-inbound";

export type InboundHandlerOptions = {
  logger: Logger;
  /** How long the parts of a concatenated message wait for the rest (INBOUND_REASSEMBLY_SECONDS). */
  reassemblyTimeoutMs: number;
  sweepMs?: number;
};

export class InboundHandler {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | null = null;
  private readonly log: Logger;

  constructor(private readonly options: InboundHandlerOptions) {
    this.log = options.logger.child({ component: "inbound" });
  }

  readonly handle = async (message: MobileOriginated, connection: CarrierConnection): Promise<void> => {
    const operator = connection.config.operator;
    const outcome = await storeMobileOriginated({ operator, mo: message });
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
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }
}
