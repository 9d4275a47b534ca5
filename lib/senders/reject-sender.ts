import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { SenderIdRecord } from "./add-sender";
import { rejectionReasonSchema } from "./sender-name";

/** Turns down a pending sender id with a reason the account reads on its Sender IDs page. */
export async function rejectSender(input: { accountId: string; name: string; reason: string; actor: string }): Promise<SenderIdRecord> {
  const reason = rejectionReasonSchema.safeParse(input.reason);
  if (!reason.success) throw AppError.validation([{ field: "reason", description: reason.error.issues[0].message }]);
  const sender = await db().senderId.findUnique({
    where: { accountId_name: { accountId: input.accountId, name: input.name.trim() } },
  });
  if (!sender) throw AppError.notFound("Sender id");
  if (sender.status !== "pending") {
    throw new AppError("CONFLICT", `Sender id ${sender.name} is ${sender.status}, not awaiting review`);
  }
  const rejected = await db().senderId.update({
    where: { id: sender.id },
    data: { status: "rejected", rejectedReason: reason.data, reviewedAt: new Date() },
  });
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "sender.rejected",
    targetType: "sender_id",
    targetId: sender.id,
    data: { name: sender.name, reason: reason.data },
  });
  return rejected;
}
