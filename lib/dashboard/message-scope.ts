import { AppError } from "@/lib/errors";
import type { SessionUser } from "@/lib/auth/auth-options";
import { can, type Permission } from "@/lib/auth/permissions";
import type { MessageScope } from "./get-message-detail";
import { isTestView, type ViewMode } from "./view-mode";

/** Who may open a message: account users (their account's) and platform staff (any, read-only). */
export const messageReaders: readonly Permission[] = ["messages.view", "platform.lookup"];

/** Which messages a user holding one of messageReaders may read: account users, those of their view (test or live). */
export function messageScopeOf(user: SessionUser, mode: ViewMode): MessageScope {
  if (user.accountId && can(user.role, "messages.view")) return { accountId: user.accountId, test: isTestView(mode) };
  return { platform: true };
}

function isNotFound(error: unknown): boolean {
  return error instanceof AppError && error.code === "NOT_FOUND";
}

/**
 * What `read` finds in the scope; when it is not there but the account's other view holds it (a
 * test message opened in the live view), "other-view", so the page can offer the switch; else null.
 */
export async function readInView<T>(scope: MessageScope, read: (scope: MessageScope) => Promise<T>): Promise<T | "other-view" | null> {
  try {
    return await read(scope);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  if (!("accountId" in scope)) return null;
  try {
    await read({ ...scope, test: !scope.test });
    return "other-view";
  } catch (error) {
    if (!isNotFound(error)) throw error;
    return null;
  }
}
