"use server";

import { z } from "zod";
import { accountIdOf, defineAction, userActor } from "@/lib/dashboard/define-action";
import { cancelBulkSend } from "@/lib/messages/cancel-messages";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/** The report's "Cancel the rest": the API's bulk cancel, on the signed-in user's account. */
export const cancelBulkSendAction = defineAction(
  "messages.send",
  z.object({ bulkSendId: z.uuid(), test: z.boolean() }),
  async (input, user) => {
    const accountId = accountIdOf(user);
    const result = await cancelBulkSend({ accountId, test: input.test }, input.bulkSendId);
    await recordAuditEvent({
      accountId,
      actor: userActor(user),
      action: "bulk_send.cancelled",
      targetType: "bulk_send",
      targetId: input.bulkSendId,
      data: { cancelled: result.cancelled, notCancelled: result.notCancelled },
    });
    return result;
  },
);
