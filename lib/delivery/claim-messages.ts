// The message queue's claims (each engine's delivery store, lib/db/stores) and its leases' end.
import { SQL_STATUS } from "@/lib/model/message-status";
import { sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { getStores } from "@/lib/db/stores";
import { parseId } from "@/lib/db/stores/shared/rows";
import type { ClaimedMessage, MessageClaim } from "@/lib/model/queue";
import { recordMessageEvent } from "./record-message-event";

export type { ClaimedMessage } from "@/lib/model/queue";

/** Moves up to `limit` due messages of one carrier (live or test) to processing, leased to `owner`. */
export function claimMessages(claim: MessageClaim): Promise<ClaimedMessage[]> {
  return getStores().delivery.claim(claim);
}

/** Messages whose lease ran out (their dispatcher died) go back to the queue; returns how many. */
export async function requeueExpiredLeases(now = new Date()): Promise<number> {
  return sql().transaction(async (tx) => {
    const rows = await tx.all(
      `UPDATE "Message" SET "status" = ${SQL_STATUS.enqueued}, "leaseOwner" = NULL, "leaseUntil" = NULL, "nextAttemptAt" = ?, "lastError" = 'lease expired', "updatedAt" = ?
       WHERE "status" = ${SQL_STATUS.processing} AND "leaseUntil" < ? RETURNING "id"`,
      [toDbTime(now), toDbTime(now), toDbTime(now)],
    );
    for (const id of rows.map(parseId)) {
      await recordMessageEvent(tx, id, "retry", "lease expired: the dispatcher stopped before recording an answer", now);
    }
    return rows.length;
  });
}

/** At a graceful stop: this owner's claims that got no answer go back to the queue, due now. */
export async function releaseLeases(owner: string, now = new Date()): Promise<number> {
  return sql().run(
    `UPDATE "Message" SET "status" = ${SQL_STATUS.enqueued}, "leaseOwner" = NULL, "leaseUntil" = NULL, "nextAttemptAt" = ?, "updatedAt" = ?
     WHERE "status" = ${SQL_STATUS.processing} AND "leaseOwner" = ?`,
    [toDbTime(now), toDbTime(now), owner],
  );
}
