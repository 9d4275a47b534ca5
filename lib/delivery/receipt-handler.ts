// Receives the carriers' delivery receipts and group-commits them. A receipt can overtake the record of its own submit
// (the submit_sm_resp is written in the next group commit, or by another worker), so a receipt for
// an unknown id is matched again every retryMs for up to giveUpMs before it is logged and
// acknowledged anyway. It is acknowledged only then: if this process dies while waiting, the SMSC
// still holds the receipt and sends it to the next bind. Storage errors go back to the connection,
// which asks the SMSC to resend; nothing here can crash the process.
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@/lib/log";
import type { DeliveryReceipt } from "@/lib/smpp/parse-receipt";
import type { CarrierConnection } from "@/lib/smpp/carrier-connection";
import { createGroupCommit } from "@/lib/db/group-commit";
import { recordReceipts, type ReceiptEntry, type ReceiptMatch } from "./record-receipt";
import type { ReceiptHours } from "./hour-stats";

/** Receipts recorded in one transaction at most (they arrive as fast as submits are answered). */
const MAX_RECEIPTS_PER_COMMIT = 500;

export class ReceiptHandler {
  private readonly stopping = new AbortController();
  private readonly record: (entry: ReceiptEntry) => Promise<ReceiptMatch>;
  private readonly log: Logger;

  /** `hours`: where the live receipts are counted for the dispatcher's reports. */
  constructor(private readonly options: { logger: Logger; hours: ReceiptHours; retryMs?: number; giveUpMs?: number }) {
    this.record = createGroupCommit<ReceiptEntry, ReceiptMatch>(
      (entries) => recordReceipts(entries, options.hours),
      MAX_RECEIPTS_PER_COMMIT,
    );
    this.log = options.logger.child({ component: "receipts" });
  }

  readonly handle = async (receipt: DeliveryReceipt, connection: CarrierConnection): Promise<void> => {
    const operator = connection.config.operator;
    const giveUpAt = Date.now() + (this.options.giveUpMs ?? 10_000);
    while ((await this.record({ operator, receipt })) === "unknown") {
      if (Date.now() >= giveUpAt) {
        this.log.warn(
          { operator, carrierMessageId: receipt.messageId, stat: receipt.stat },
          "receipt for an unknown message id acknowledged and dropped",
        );
        return;
      }
      // Stopping: leave it unacknowledged so the SMSC sends it again.
      await sleep(this.options.retryMs ?? 500, undefined, { signal: this.stopping.signal });
    }
  };

  stop(): void {
    this.stopping.abort();
  }
}
