import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { senderNameKey, senderNameSchema } from "./sender-name";

export type SenderIdRecord = {
  id: string;
  name: string;
  status: string;
  useCase: string;
  rejectedReason: string | null;
  createdAt: Date;
  approvedAt: Date | null;
  reviewedAt: Date | null;
};

/**
 * Adds a sender id to an account: pending (awaiting an admin) unless approved directly. One sender
 * id per name on an account whatever its case; a rejected name may be requested again, which sends
 * it back for review with the new use case.
 */
export async function addSender(input: {
  accountId: string;
  name: string;
  approved: boolean;
  actor: string;
  useCase?: string;
}): Promise<SenderIdRecord> {
  const name = senderNameSchema.safeParse(input.name);
  if (!name.success) throw AppError.validation([{ field: "sender_id", description: name.error.issues[0].message }]);
  if (!(await db().account.findUnique({ where: { id: input.accountId }, select: { id: true } }))) {
    throw AppError.notFound("Account");
  }
  const nameKey = senderNameKey(name.data);
  const useCase = input.useCase?.trim() ?? "";
  const existing = await db().senderId.findUnique({ where: { accountId_nameKey: { accountId: input.accountId, nameKey } } });
  if (existing && existing.status !== "rejected") {
    const same = existing.name === name.data ? "is" : `is the same as ${existing.name}, which is`;
    throw new AppError("CONFLICT", `Sender id ${name.data} already exists on this account`, {
      fields: [{ field: "sender_id", description: `${same} already ${existing.status}` }],
    });
  }
  const status = input.approved ? "approved" : "pending";
  // One clock reading: a sender id added approved is approved when it is created, not a moment before.
  const now = new Date();
  const fields = {
    name: name.data,
    status,
    useCase,
    rejectedReason: null,
    approvedAt: input.approved ? now : null,
    reviewedAt: null,
  };
  const sender = existing
    ? await db().senderId.update({ where: { id: existing.id }, data: fields })
    : await db().senderId.create({ data: { accountId: input.accountId, nameKey, createdAt: now, ...fields } });
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: input.approved ? "sender.added" : "sender.requested",
    targetType: "sender_id",
    targetId: sender.id,
    data: { name: sender.name, status: sender.status, useCase },
  });
  return sender;
}
