// An operator's pause of a carrier: while a row exists, no dispatcher claims that carrier's live
// messages (they stay queued, uncharged again; in-flight ones finish). Kept in the database so
// that it holds across restarts and every worker; dispatchers re-read it every few seconds.
import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Operator } from "./operators";

export type CarrierPause = { operator: string; reason: string; actor: string; pausedAt: Date };

export const MIN_PAUSE_REASON = 3;
export const MAX_PAUSE_REASON = 500;

function checkedReason(reason: string): string {
  const trimmed = reason.trim();
  if (!trimmed) throw AppError.validation([{ field: "reason", description: "is required" }]);
  if (trimmed.length < MIN_PAUSE_REASON)
    throw AppError.validation([{ field: "reason", description: `needs at least ${MIN_PAUSE_REASON} characters: say why` }]);
  if (trimmed.length > MAX_PAUSE_REASON)
    throw AppError.validation([{ field: "reason", description: `is at most ${MAX_PAUSE_REASON} characters` }]);
  return trimmed;
}

/** Pauses a carrier; pausing a paused carrier keeps the first pause (its time and reason). */
export async function pauseCarrier(input: {
  operator: Operator;
  reason: string;
  actor: string;
}): Promise<{ pause: CarrierPause; changed: boolean }> {
  const reason = checkedReason(input.reason);
  const existing = await db().carrierPause.findUnique({ where: { operator: input.operator } });
  if (existing) return { pause: existing, changed: false };
  let pause: CarrierPause;
  try {
    pause = await db().carrierPause.create({ data: { operator: input.operator, reason, actor: input.actor } });
  } catch (error) {
    // Another pause of the same carrier landed between the read and the insert: that one stands.
    if (!isUniqueViolation(error)) throw error;
    return { pause: await db().carrierPause.findUniqueOrThrow({ where: { operator: input.operator } }), changed: false };
  }
  await recordAuditEvent({
    accountId: null,
    actor: input.actor,
    action: "carrier.paused",
    targetType: "carrier",
    targetId: input.operator,
    data: { reason },
  });
  return { pause, changed: true };
}

/** Resumes a paused carrier; resuming one that is not paused changes nothing. */
export async function resumeCarrier(input: { operator: Operator; actor: string }): Promise<{ changed: boolean }> {
  const { count } = await db().carrierPause.deleteMany({ where: { operator: input.operator } });
  if (count === 0) return { changed: false };
  await recordAuditEvent({
    accountId: null,
    actor: input.actor,
    action: "carrier.resumed",
    targetType: "carrier",
    targetId: input.operator,
  });
  return { changed: true };
}

export async function listCarrierPauses(): Promise<CarrierPause[]> {
  return db().carrierPause.findMany({ orderBy: { operator: "asc" } });
}
