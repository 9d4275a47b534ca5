import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { SenderIdRecord } from "./add-sender";

export async function approveSender(input: { accountId: string; name: string; actor: string }): Promise<SenderIdRecord> {
  const sender = await db().senderId.findUnique({
    where: { accountId_name: { accountId: input.accountId, name: input.name.trim() } },
  });
  if (!sender) throw AppError.notFound("Sender id");
  if (sender.status === "approved") return sender;
  const now = new Date();
  const approved = await db().senderId.update({
    where: { id: sender.id },
    data: { status: "approved", approvedAt: now, reviewedAt: now, rejectedReason: null },
  });
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "sender.approved",
    targetType: "sender_id",
    targetId: sender.id,
    data: { name: sender.name },
  });
  return approved;
}
