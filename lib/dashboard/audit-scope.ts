// Whose audit events a signed-in reader sees: an owner their account's, a platform admin all.
import type { SessionUser } from "@/lib/auth/auth-options";
import type { AuditScope } from "./list-audit-events";

export function auditScopeOf(user: SessionUser): AuditScope {
  return user.accountId ? { accountId: user.accountId } : { allAccounts: true };
}
