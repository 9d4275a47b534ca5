// SQLite's delivery and webhook stores. One writer: a claim's UPDATE … RETURNING runs under the
// database's write lock, so its inner SELECT needs no lock and the UPDATE no second status check
// (with one, SQLite walks every enqueued row through the status index instead of the claimed ids).
// Answers and receipts are written in a transaction: its statements cost no round trip.
import type { Sql } from "@/lib/db/sql";
import type { DeliveryStore, WebhookStore } from "../types";
import { claimMessages, claimWebhookDeliveries, readQueueState, type ClaimClauses } from "../shared/claims";

const SQLITE_CLAIMS: ClaimClauses = { chooseOnce: "", lockDue: "", stillDue: "" };
/**
 * Without statistics SQLite would read the due rows through (status, nextAttemptAt) and sort every
 * one of them; the claim index gives them in turn order and stops at the limit.
 */
const SQLITE_MESSAGE_CLAIMS: ClaimClauses = {
  ...SQLITE_CLAIMS,
  dueIndex: ` INDEXED BY "Message_status_operator_test_turnAt_nextAttemptAt_idx"`,
};

export function sqliteDeliveryStore(database: Sql): DeliveryStore {
  return {
    claim: (claim) => claimMessages(database, SQLITE_MESSAGE_CLAIMS, claim),
    readQueueState: (queue) => readQueueState(database, queue),
    // The one writer already orders every transaction.
    holdMessages: async () => undefined,
    recordOutcomes: (_acceptances, _now, inTransaction) => database.transaction(inTransaction),
    recordReceipts: (_plainChanges, _now, inTransaction) => database.transaction(inTransaction),
  };
}

export function sqliteWebhookStore(database: Sql): WebhookStore {
  return { claim: (claim) => claimWebhookDeliveries(database, SQLITE_CLAIMS, claim) };
}
