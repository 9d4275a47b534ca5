// The seam for what follows an inbound message once it is stored (keyword handling, account
// webhooks): each listener is called with every stored message, after its transaction commits. A
// listener's failure is logged and does not undo the storing or reach the carrier.
import { logger } from "@/lib/log";

export const inboundModes = ["test", "live"] as const;
export type InboundMode = (typeof inboundModes)[number];

export type StoredInboundMessage = {
  id: string;
  accountId: string | null;
  from: string;
  to: string;
  body: string;
  operator: string;
  encoding: string;
  segments: number;
  complete: boolean;
  receivedAt: Date;
  /** test when it came over a bind that carries test traffic only (the sandbox's simulator): what answers it is test traffic too. */
  mode: InboundMode;
};

export type InboundListener = (message: StoredInboundMessage) => Promise<void> | void;

const listeners = new Set<InboundListener>();

/** Adds a listener; returns how to remove it. */
export function addInboundListener(listener: InboundListener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Called for each stored inbound message. */
export async function onInboundStored(message: StoredInboundMessage): Promise<void> {
  for (const listener of listeners) {
    try {
      await listener(message);
    } catch (error) {
      logger.error({ err: error, inboundId: message.id }, "inbound listener failed");
    }
  }
}
