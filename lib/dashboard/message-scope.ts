import { AppError } from "@/lib/errors";
import { requireAccountPermission, requirePermission } from "@/lib/auth/require-permission";
import type { MessageScope } from "./get-message-detail";

/** Which messages the signed-in user may read: their account's, or (platform staff) any, read-only. */
export async function requireMessageScope(): Promise<MessageScope> {
  try {
    const user = await requireAccountPermission("messages.view");
    return { accountId: user.accountId };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "FORBIDDEN") throw error;
    await requirePermission("platform.lookup");
    return { platform: true };
  }
}
