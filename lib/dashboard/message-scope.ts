import type { SessionUser } from "@/lib/auth/auth-options";
import { can, type Permission } from "@/lib/auth/permissions";
import type { MessageScope } from "./get-message-detail";

/** Who may open a message: account users (their account's) and platform staff (any, read-only). */
export const messageReaders: readonly Permission[] = ["messages.view", "platform.lookup"];

/** Which messages a user holding one of messageReaders may read. */
export function messageScopeOf(user: SessionUser): MessageScope {
  if (user.accountId && can(user.role, "messages.view")) return { accountId: user.accountId };
  return { platform: true };
}
