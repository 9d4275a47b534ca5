// Receives the carriers' delivery receipts. A receipt can overtake the record of its own submit
// (the submit_sm_resp is written in the next group commit, or by another worker), so a receipt for
// an unknown id is acknowledged, kept in memory and matched again for a minute before it is
// logged and dropped. Never a crash: storage errors go back to the connection, which asks the SMSC
// to resend.
import type { Logger } from "@/lib/log";
import type { DeliveryReceipt } from "@/lib/smpp/parse-receipt";
import type { CarrierConnection } from "@/lib/smpp/carrier-connection";
import { recordReceipt } from "./record-receipt";

type Unmatched = { operator: string; receipt: DeliveryReceipt; firstSeen: number };

export class ReceiptHandler {
  private readonly unmatched: Unmatched[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly log: Logger;

  constructor(private readonly options: { logger: Logger; retryMs?: number; giveUpMs?: number }) {
    this.log = options.logger.child({ component: "receipts" });
  }

  readonly handle = async (receipt: DeliveryReceipt, connection: CarrierConnection): Promise<void> => {
    const operator = connection.config.operator;
    if ((await recordReceipt(operator, receipt)) === "unknown") {
      this.unmatched.push({ operator, receipt, firstSeen: Date.now() });
      this.timer ??= setTimeout(() => void this.retryUnmatched(), this.options.retryMs ?? 1000);
    }
  };

  stop(): void {
    clearTimeout(this.timer);
    if (this.unmatched.length > 0) this.log.warn({ unmatched: this.unmatched.length }, "stopping with receipts not matched to any message");
  }

  private async retryUnmatched(): Promise<void> {
    const waiting = this.unmatched.splice(0);
    for (const entry of waiting) {
      const match = await recordReceipt(entry.operator, entry.receipt).catch((error) => {
        this.log.error({ err: error }, "receipt retry failed");
        return "unknown" as const;
      });
      if (match === "matched") continue;
      if (Date.now() - entry.firstSeen < (this.options.giveUpMs ?? 60_000)) this.unmatched.push(entry);
      else this.log.warn({ operator: entry.operator, carrierMessageId: entry.receipt.messageId, stat: entry.receipt.stat }, "receipt for an unknown message id dropped");
    }
    this.timer = this.unmatched.length > 0 ? setTimeout(() => void this.retryUnmatched(), this.options.retryMs ?? 1000) : undefined;
  }
}
