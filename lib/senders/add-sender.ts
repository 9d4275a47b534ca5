import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { senderNameSchema } from "./sender-name";

export type SenderIdRecord = { id: string; name: string; status: string; createdAt: Date; approvedAt: Date | null };

/** Adds a sender id to an account: pending (awaiting an admin) unless approved directly. */
export async function addSender(input: { accountId: string; name: string; approved: boolean; actor: string }): Promise<SenderIdRecord> {
  const name = senderNameSchema.safeParse(input.name);
  if (!name.success) throw AppError.validation([{ field: "sender_id", description: name.error.issues[0].message }]);
  if (!(await db().account.findUnique({ where: { id: input.accountId }, select: { id: true } }))) {
    throw AppError.notFound("Account");
  }
  const existing = await db().senderId.findUnique({ where: { accountId_name: { accountId: input.accountId, name: name.data } } });
  if (existing) {
    throw new AppError("CONFLICT", `Sender id ${name.data} already exists on this account`, {
      fields: [{ field: "sender_id", description: `is already ${existing.status}` }],
    });
  }
  const sender = await db().senderId.create({
    data: {
      accountId: input.accountId,
      name: name.data,
      status: input.approved ? "approved" : "pending",
      approvedAt: input.approved ? new Date() : null,
    },
  });
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: input.approved ? "sender.added" : "sender.requested",
    targetType: "sender_id",
    targetId: sender.id,
    data: { name: sender.name, status: sender.status },
  });
  return sender;
}
