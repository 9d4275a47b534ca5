// The simulator's deterministic outcomes, chosen by the last four digits of the recipient (the
// table in docs/delivery.md, The SMSC simulator). Anything else is accepted and receipted DELIVRD.
import type { ReceiptStat } from "@/lib/smpp/parse-receipt";

export type SimulatedOutcome = {
  /** How submit_sm is answered: accepted, throttled on the first try only, or refused. */
  submit: "accept" | "throttle-once" | "invalid-destination" | "system-error";
  /** The receipt's stat, or null for "never receipted". */
  receipt: ReceiptStat | null;
  /** Receipt without TLVs and with the id in decimal (the submit_sm_resp id is hex). */
  textOnlyDecimalReceipt: boolean;
};

const DELIVERED: SimulatedOutcome = { submit: "accept", receipt: "DELIVRD", textOnlyDecimalReceipt: false };

export const SIMULATED_OUTCOMES: Record<string, SimulatedOutcome & { meaning: string }> = {
  "0001": { ...DELIVERED, receipt: "UNDELIV", meaning: "accepted, then receipt UNDELIV (err:001)" },
  "0002": { ...DELIVERED, receipt: "REJECTD", meaning: "accepted, then receipt REJECTD" },
  "0003": { ...DELIVERED, receipt: null, meaning: "accepted, never receipted" },
  "0004": {
    ...DELIVERED,
    submit: "throttle-once",
    meaning: "ESME_RTHROTTLED on the first submit to this number, then accepted and DELIVRD",
  },
  "0005": { ...DELIVERED, submit: "invalid-destination", receipt: null, meaning: "ESME_RINVDSTADR (permanent)" },
  "0006": {
    ...DELIVERED,
    submit: "system-error",
    receipt: null,
    meaning: "ESME_RSYSERR on every submit (temporary, retried until the limit)",
  },
  "0007": { ...DELIVERED, receipt: "EXPIRED", meaning: "accepted, then receipt EXPIRED" },
  "0008": { ...DELIVERED, textOnlyDecimalReceipt: true, meaning: "accepted, DELIVRD receipt in text form only, id in decimal" },
};

export function simulatedOutcome(destination: string): SimulatedOutcome {
  return SIMULATED_OUTCOMES[destination.slice(-4)] ?? DELIVERED;
}
