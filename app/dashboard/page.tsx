import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getSessionUser, requireAccountPage } from "@/lib/auth/require-permission";
import { can } from "@/lib/auth/permissions";
import { getBalance } from "@/lib/ledger/get-balance";
import { getAccountStats } from "@/lib/dashboard/get-account-stats";
import { listMessages } from "@/lib/dashboard/list-messages";
import { getViewMode } from "@/lib/dashboard/view-mode";
import { PageHeader } from "@/components/ui/page-header";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Money } from "@/components/money";
import { Stat } from "@/components/stat";
import { MessageStatus } from "@/components/status-badge";
import { RelativeTime } from "@/components/time";
import { OverviewCharts } from "@/components/overview-charts";

export const metadata: Metadata = { title: "Overview" };

const RECENT = 6;

export default async function OverviewPage() {
  const session = await getSessionUser();
  if (session && can(session.role, "platform.lookup")) redirect("/dashboard/support");
  const user = await requireAccountPage("account.view");
  const mode = await getViewMode();
  const [balance, stats, recent] = await Promise.all([
    getBalance(user.accountId),
    getAccountStats(user.accountId, mode),
    listMessages(user.accountId, {}, mode),
  ]);
  const finished = stats.carriers.reduce((total, carrier) => total + carrier.final, 0);
  const rate = finished === 0 ? null : (stats.totals.delivered / finished) * 100;
  return (
    <>
      <PageHeader
        title="Overview"
        description="Your balance, traffic and delivery over the last 14 days."
        actions={
          <>
            {can(user.role, "keys.manage") && (
              <ButtonLink href="/dashboard/keys" variant="secondary">
                API keys
              </ButtonLink>
            )}
            <ButtonLink href="/dashboard/compose">Compose</ButtonLink>
          </>
        }
      />
      <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Stat
          label="Available balance"
          value={<Money value={balance.available} currency={balance.currency} />}
          testId="overview-available"
          hint={
            <>
              Held for messages not yet sent: <Money value={balance.held} currency={balance.currency} />
            </>
          }
        />
        <Stat label="Messages, 14 days" value={stats.totals.messages.toLocaleString("en")} />
        <Stat
          label="Delivery rate"
          value={rate === null ? "—" : `${rate.toFixed(1)}%`}
          hint="Delivered out of finished messages; cancelled ones left out"
        />
        <Stat
          label="Spend, 14 days"
          value={<Money value={stats.totals.spend} currency={balance.currency} />}
          hint={mode === "test" ? "Test messages are priced but never charged" : undefined}
        />
      </div>
      <OverviewCharts
        currency={balance.currency}
        days={stats.days.map((day) => ({ ...day, spend: Number(day.spend) / 10_000 }))}
        carriers={stats.carriers.map((carrier) => ({
          operator: carrier.operator,
          final: carrier.final,
          rate: carrier.final === 0 ? null : (carrier.delivered / carrier.final) * 100,
        }))}
      />
      <Card className="mt-6">
        <CardHeader
          title="Recent messages"
          actions={
            <Link href="/dashboard/messages" className="text-sm font-medium text-brand-700 hover:underline">
              View all
            </Link>
          }
        />
        {recent.rows.length === 0 ? (
          <EmptyState
            icon="send"
            title="Nothing sent yet"
            description="Create an API key and call POST /api/v1/sms, or send a first message from Compose."
            action={<ButtonLink href="/dashboard/compose">Compose a message</ButtonLink>}
          />
        ) : (
          <ul className="divide-y divide-slate-100">
            {recent.rows.slice(0, RECENT).map((row) => (
              <li key={row.id}>
                <Link href={`/dashboard/messages/${row.id}`} className="flex items-center gap-4 px-5 py-3 hover:bg-slate-50">
                  <span className="w-36 shrink-0 text-sm font-medium text-slate-900">{row.to}</span>
                  <span className="hidden min-w-0 flex-1 truncate text-sm text-slate-500 sm:block">{row.bodyPreview}</span>
                  <span className="flex-1 sm:hidden" />
                  <MessageStatus status={row.status} deliveredAt={row.deliveredAt} />
                  <span className="hidden w-24 text-right text-xs text-slate-400 sm:block">
                    <RelativeTime value={row.createdAt} />
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
