import type { Metadata } from "next";
import { requireAccountPage } from "@/lib/auth/require-permission";
import { can } from "@/lib/auth/permissions";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { WebhookSecretCard } from "./webhook-secret-card";
import { EndpointsCard } from "./endpoints-card";
import { db } from "@/lib/db/client";
import { formatAmount } from "@/lib/money";
import { listEndpointRows } from "@/lib/dashboard/webhook-endpoint-rows";

export const metadata: Metadata = { title: "Webhooks" };

const EVENTS = [
  ["message.success", "The carrier accepted the message."],
  ["message.delivered", "The carrier confirmed delivery to the handset."],
  ["message.failed", "The message failed; its charge was released."],
] as const;

export default async function WebhooksPage() {
  const user = await requireAccountPage("account.view");
  const accountId = user.accountId;
  const rows = await listEndpointRows(accountId);
  const account = await db().account.findUniqueOrThrow({ where: { id: accountId }, select: { lowBalanceThreshold: true } });
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Endpoints receive the account's events; a send's own webhook_url receives that send's status changes. Both are signed and retried with backoff."
      />
      <div className="space-y-6">
        <EndpointsCard
          initial={rows}
          canManage={can(user.role, "webhooks.endpoints")}
          canRedeliver={can(user.role, "webhooks.redeliver")}
          threshold={account.lowBalanceThreshold === null ? "" : formatAmount(account.lowBalanceThreshold)}
        />
        <WebhookSecretCard canManage={can(user.role, "webhooks.secret")} />
        <Card>
          <CardHeader title="Per-send webhook events" />
          <CardBody>
            <dl className="divide-y divide-slate-100 text-sm">
              {EVENTS.map(([name, description]) => (
                <div key={name} className="grid gap-1 py-2 sm:grid-cols-[12rem_1fr]">
                  <dt>
                    <code className="font-mono text-xs text-slate-900">{name}</code>
                  </dt>
                  <dd className="text-slate-600">{description}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-3 text-sm text-slate-500">
              Each delivery and its attempts show on the message&apos;s page, with a button to send it again.
            </p>
          </CardBody>
        </Card>
      </div>
    </>
  );
}
