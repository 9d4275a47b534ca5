// The message queue's claims (each engine's delivery store, lib/db/stores) and its leases' end.
import { SQL_STATUS } from "@/lib/model/message-status";
import { sql } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { toDbTime } from "@/lib/db/sql";
import { getStores } from "@/lib/db/stores";
import { parseRows } from "@/lib/db/stores/shared/rows";
import type { ClaimedMessage, MessageClaim } from "@/lib/model/queue";
import { queueStatusChangesOf, statusEventsWanted } from "@/lib/webhooks/status-events";
import { recordMessageEvent } from "./record-message-event";

export type { ClaimedMessage } from "@/lib/model/queue";

/**
 * Moves up to `limit` due messages of one carrier (live or test) to processing, leased to `owner`,
 * and queues message.status (processing) for those of accounts with status endpoints before they
 * are handed to the carrier. The claim stands if that fails: the failure is logged.
 */
export async function claimMessages(claim: MessageClaim): Promise<ClaimedMessage[]> {
  const claimed = await getStores().delivery.claim(claim);
  if (claimed.length > 0 && (await statusEventsWanted())) {
    await sql()
      .transaction((tx) => queueStatusChangesOf(tx, claimed, claim.now ?? new Date()))
      .catch((error: unknown) =>
        logger.error({ err: error, messages: claimed.length }, "message.status events of claimed messages not queued"),
      );
  }
  return claimed;
}

/**
 * Messages whose lease ran out (their dispatcher died) go back to the queue; returns how many. Their
 * submits may have gone out, so a carrier may have them.
 */
export async function requeueExpiredLeases(now = new Date()): Promise<number> {
  return sql().transaction(async (tx) => {
    const rows = parseRows(
      await tx.all(
        `UPDATE "Message" SET "status" = ${SQL_STATUS.enqueued}, "leaseOwner" = NULL, "leaseUntil" = NULL, "nextAttemptAt" = ?, "lastError" = 'lease expired', "updatedAt" = ?, "mayBeAtCarrier" = TRUE
         WHERE "status" = ${SQL_STATUS.processing} AND "leaseUntil" < ? RETURNING "id", "accountId"`,
        [toDbTime(now), toDbTime(now), toDbTime(now)],
      ),
      { id: "text", accountId: "text" },
    );
    for (const { id } of rows) {
      await recordMessageEvent(tx, id, "retry", "lease expired: the dispatcher stopped before recording an answer", now);
    }
    await queueStatusChangesOf(tx, rows, now);
    return rows.length;
  });
}

/**
 * At a graceful stop: this owner's claims that got no answer go back to the queue, due now. With
 * `submitsInFlight` (the stop's grace ended before every answer came, or answers could not be
 * written), a carrier may have them.
 */
export async function releaseLeases(owner: string, { submitsInFlight = false } = {}, now = new Date()): Promise<number> {
  const text = `UPDATE "Message" SET "status" = ${SQL_STATUS.enqueued}, "leaseOwner" = NULL, "leaseUntil" = NULL, "nextAttemptAt" = ?, "updatedAt" = ?${submitsInFlight ? `, "mayBeAtCarrier" = TRUE` : ""}
     WHERE "status" = ${SQL_STATUS.processing} AND "leaseOwner" = ?`;
  const params = [toDbTime(now), toDbTime(now), owner];
  if (!(await statusEventsWanted())) return sql().run(text, params);
  return sql().transaction(async (tx) => {
    const rows = parseRows(await tx.all(`${text} RETURNING "id", "accountId"`, params), { id: "text", accountId: "text" });
    await queueStatusChangesOf(tx, rows, now);
    return rows.length;
  });
}
