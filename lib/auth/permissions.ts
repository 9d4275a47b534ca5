// What each role may do. The server checks these (lib/auth/require-permission.ts) on every page,
// server action and route of the dashboard; the UI reads the same table only to hide what would be
// refused anyway.
import type { Role } from "@/lib/users/roles";

export const permissions = {
  /** Account pages: overview, balance and ledger, sender ids, API reference. */
  "account.view": ["owner", "developer"],
  "keys.manage": ["owner", "developer"],
  "messages.send": ["owner", "developer"],
  "messages.view": ["owner", "developer"],
  /** The account's opt-out list: add, remove, import, export. */
  "optouts.manage": ["owner", "developer"],
  /** The account's own opt-out keywords and confirmation replies: owners change them, developers read them. */
  "optouts.settings": ["owner"],
  /** The inbox: the account's inbound messages and numbers, conversations per phone number. */
  "inbound.view": ["owner", "developer"],
  "webhooks.redeliver": ["owner", "developer"],
  "webhooks.secret": ["owner"],
  /** Account webhook endpoints and the low-balance threshold: owners change them, developers read them. */
  "webhooks.endpoints": ["owner"],
  "members.manage": ["owner"],
  /** The account's settings (its time zone): owners change them, developers read them. */
  "account.settings": ["owner"],
  /** Their own password: every signed-in user. */
  "password.change": ["owner", "developer", "support", "admin"],
  /** The audit log: owners read their account's, admins every account's. */
  "audit.view": ["owner", "admin"],
  "senders.request": ["owner"],
  /** Platform staff: find any account's message, read-only. */
  "platform.lookup": ["support", "admin"],
  "platform.accounts": ["admin"],
  /** Inbound metadata of every account (no bodies); admins also read unrouted messages. */
  "platform.inbound": ["support", "admin"],
  "inbound.unrouted": ["admin"],
  "numbers.manage": ["admin"],
  /** The Carriers page: support reads it, admins also pause and resume carriers. */
  "carriers.view": ["support", "admin"],
  "carriers.manage": ["admin"],
  "senders.approve": ["admin"],
  /** Credit balances, reverse credits, approve and decline top-up requests. */
  "balance.credit": ["admin"],
  /** Ask for a balance top-up and cancel a pending request; developers only read them. */
  "balance.request": ["owner"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof permissions;

export function can(role: Role, permission: Permission): boolean {
  return (permissions[permission] as readonly Role[]).includes(role);
}
