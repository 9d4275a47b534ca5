// The delivery store both engines share: claims, queue state and the receipt parts lookup are the
// same SQL on each, and a carrier acceptance or a receipt's part changes are written with the
// domain's rest of the batch after them. Each engine gives its claim clauses, its two writes and how
// a change and its rest share a transaction (../sqlite, ../postgres).
import type { Sql, SqlExecutor } from "@/lib/db/sql";
import type { CarrierAcceptance, DeliveredMessage, DeliveryStore, PartChange, ThenInTransaction } from "../types";
import { claimMessages, readQueueState, type ClaimClauses } from "./claims";
import { findParts } from "./receipt-parts";

export type EngineDeliveryWrites = {
  claims: ClaimClauses;
  /** Runs the change; with `then`, in one transaction with `then` after it. */
  withThen<C, T>(then: ThenInTransaction<C, T>, change: (executor: SqlExecutor) => Promise<C>): Promise<{ changed: C; then: T | null }>;
  recordAcceptances(executor: SqlExecutor, acceptances: CarrierAcceptance[], now: Date): Promise<string[]>;
  recordPartChanges(executor: SqlExecutor, changes: PartChange[], now: Date): Promise<DeliveredMessage[]>;
};

export function deliveryStore(database: Sql, engine: EngineDeliveryWrites): DeliveryStore {
  return {
    claim: (claim) => claimMessages(database, engine.claims, claim),
    readQueueState: (queue) => readQueueState(database, queue),
    recordAcceptances: async (acceptances, now, then) => {
      const { changed, then: result } = await engine.withThen(then, (executor) => engine.recordAcceptances(executor, acceptances, now));
      return { landed: changed, then: result };
    },
    findParts: (operator, carrierMessageIds) => findParts(database, operator, carrierMessageIds),
    recordPartChanges: async (changes, now, then) => {
      const { changed, then: result } = await engine.withThen(then, (executor) => engine.recordPartChanges(executor, changes, now));
      return { delivered: changed, then: result };
    },
  };
}
