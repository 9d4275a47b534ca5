import { db } from "@/lib/db/client";

export type AuditEventInput = {
  accountId: string | null;
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  data?: Record<string, unknown>;
};

/** Who did what to keys, users, sender ids and balances. Never pass secrets in data. */
export async function recordAuditEvent(event: AuditEventInput): Promise<void> {
  await db().auditEvent.create({
    data: { ...event, data: JSON.stringify(event.data ?? {}) },
  });
}
