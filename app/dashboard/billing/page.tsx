import type { Metadata } from "next";
import Link from "next/link";
import { requireAccountPage } from "@/lib/auth/require-permission";
import { getBalance } from "@/lib/ledger/get-balance";
import { listLedger, parseLedgerFilters } from "@/lib/dashboard/list-ledger";
import { paramsOf } from "@/lib/dashboard/filters";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardHeader } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { LEDGER_KINDS, ledgerKindLabel } from "@/lib/messages/vocabulary";
import { Field, Input, Select } from "@/components/ui/field";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { FilterForm, withParams } from "@/components/ui/filter-form";
import { Money } from "@/components/money";
import { formatMoney } from "@/lib/money";
import { buttonClass } from "@/components/ui/button";
import { Stat } from "@/components/stat";
import { Time } from "@/components/time";
import { can } from "@/lib/auth/permissions";
import { listAccountTopUps } from "@/lib/ledger/top-up-requests";
import { TopUpCard } from "./top-up-card";
import { getViewMode } from "@/lib/dashboard/view-mode";

export const metadata: Metadata = { title: "Balance" };

type LedgerItem = Awaited<ReturnType<typeof listLedger>>["rows"][number];

function ledgerColumns(currency: string): Column<LedgerItem>[] {
  return [
    { key: "date", header: "Date", nowrap: true, cell: (row) => <Time value={row.createdAt.toISOString()} /> },
    {
      key: "kind",
      header: "Kind",
      nowrap: true,
      cell: (row) =>
        row.type === "bulk" ? (
          <Badge tone="violet">Bulk send</Badge>
        ) : (
          <Badge tone={ledgerKindLabel(row.kind).tone}>{ledgerKindLabel(row.kind).label}</Badge>
        ),
    },
    {
      key: "description",
      header: "Description",
      className: "max-w-md min-w-56",
      cell: (row) =>
        row.type === "bulk" ? (
          <Link href={`/dashboard/bulk/${row.bulkSendId}`} className="break-words text-brand-700 hover:underline" data-testid="ledger-bulk">
            Bulk send …{row.bulkSendId.slice(-8)}: {row.messages.toLocaleString("en")} {row.messages === 1 ? "message" : "messages"}, hold{" "}
            {formatMoney(-row.held, currency)}, refunds {formatMoney(row.refunded, currency)}
          </Link>
        ) : row.messageId ? (
          <Link href={`/dashboard/messages/${row.messageId}`} className="font-mono text-xs break-all text-brand-700 hover:underline">
            {row.messageId}
          </Link>
        ) : (
          row.reason || "—"
        ),
    },
    {
      key: "amount",
      header: "Amount",
      numeric: true,
      cell: (row) => <Money value={row.type === "bulk" ? row.held + row.refunded : row.amount} currency={currency} signed />,
    },
    {
      key: "after",
      header: "Balance after",
      numeric: true,
      className: "text-slate-500",
      cell: (row) => (row.type === "bulk" ? "—" : <Money value={row.balanceAfter} currency={currency} />),
    },
  ];
}

export default async function BillingPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireAccountPage("account.view");
  const params = paramsOf(await searchParams);
  const { filters, problems } = parseLedgerFilters(params);
  const [balance, ledger, topUps, mode] = await Promise.all([
    getBalance(user.accountId),
    listLedger(user.accountId, filters),
    listAccountTopUps(user.accountId),
    getViewMode(),
  ]);
  return (
    <>
      <PageHeader
        title="Balance"
        description={`Sends are paid from a prepaid balance. Each message's charge is held when it is accepted and released if it fails; every change is a ledger entry.${mode === "test" ? " Test messages are never charged, so the balance, the ledger and its export are the live ones in both views." : ""}`}
      />
      <div className="mb-6 grid gap-4 sm:grid-cols-3">
        <Stat
          label="Available"
          value={<Money value={balance.available} currency={balance.currency} />}
          testId="balance-available"
          hint="What new sends can spend"
        />
        <Stat
          label="Held for messages not yet sent"
          value={<Money value={balance.held} currency={balance.currency} />}
          testId="balance-held"
          hint="Scheduled, queued or being sent; released back if a message fails"
        />
        <Stat label="Currency" value={balance.currency} hint="Credits are added by Tumira staff" />
      </div>
      <TopUpCard
        currency={balance.currency}
        canRequest={can(user.role, "balance.request")}
        requests={topUps.map((request) => ({
          id: request.id,
          amount: request.amount.toString(),
          currency: request.currency,
          reference: request.reference,
          note: request.note,
          state: request.state,
          decidedAt: request.decidedAt?.toISOString() ?? null,
          declineReason: request.declineReason,
          createdAt: request.createdAt.toISOString(),
        }))}
      />
      <Card>
        <CardHeader
          title="Ledger"
          description="Every balance change, newest first. A bulk send is one row: its holds and refunds summed, with the report a click away."
        />
        <FilterForm resetHref="/dashboard/billing" problems={problems.map((problem) => problem.description)}>
          <Field id="ledger-kind" label="Kind">
            <Select id="ledger-kind" name="kind" defaultValue={filters.kind ?? ""}>
              <option value="">All kinds</option>
              {LEDGER_KINDS.map((kind) => (
                <option key={kind.value} value={kind.value}>
                  {kind.label}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="ledger-from" label="From">
            <Input id="ledger-from" name="from" type="date" defaultValue={filters.from} />
          </Field>
          <Field id="ledger-to" label="To">
            <Input id="ledger-to" name="to" type="date" defaultValue={filters.to} />
          </Field>
          <Field id="ledger-rows" label="Bulk sends">
            <Select id="ledger-rows" name="rows" defaultValue={filters.rows ?? "grouped"}>
              <option value="grouped">One row per bulk send</option>
              <option value="each">Every entry</option>
            </Select>
          </Field>
        </FilterForm>
        <div className="flex flex-wrap items-center justify-end gap-2 border-b border-slate-100 px-5 py-2">
          <a
            href={withParams("/api/dashboard/ledger/export", { kind: filters.kind, from: filters.from, to: filters.to }, {})}
            download
            className={buttonClass("secondary", "sm")}
            data-testid="ledger-export-csv"
          >
            Export CSV
          </a>
        </div>
        <DataTable
          columns={ledgerColumns(balance.currency)}
          rows={ledger.rows}
          rowKey={(row) => `${row.type}-${row.id}`}
          rowAttributes={(row) => ({ "data-testid": row.type === "bulk" ? "ledger-bulk-row" : "ledger-row" })}
          empty={
            <EmptyState
              icon="wallet"
              title="No ledger entries match"
              description="Credits appear here when Tumira staff top up the account; holds and releases when messages are sent."
            />
          }
          pagination={{
            firstHref: filters.before ? withParams("/dashboard/billing", params, { before: undefined }) : undefined,
            firstLabel: "Newest",
            nextHref: ledger.nextBefore ? withParams("/dashboard/billing", params, { before: String(ledger.nextBefore) }) : undefined,
            nextLabel: "Older entries",
          }}
        />
      </Card>
    </>
  );
}
