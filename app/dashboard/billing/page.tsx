import type { Metadata } from "next";
import Link from "next/link";
import { requireAccountPage } from "@/lib/auth/require-permission";
import { getBalance } from "@/lib/ledger/get-balance";
import { ledgerFiltersSchema, listLedger } from "@/lib/dashboard/list-ledger";
import { paramsOf } from "@/lib/dashboard/filters";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardHeader } from "@/components/ui/card";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Field, Input, Select } from "@/components/ui/field";
import { Table, Td, Th } from "@/components/ui/table";
import { EmptyState } from "@/components/ui/empty-state";
import { buttonClass } from "@/components/ui/button";
import { FilterBar, withParams } from "@/components/filter-bar";
import { Money } from "@/components/money";
import { Stat } from "@/components/stat";
import { Time } from "@/components/time";

export const metadata: Metadata = { title: "Balance" };

const kindTone: Record<string, BadgeTone> = { credit: "green", hold: "gray", release: "blue", adjustment: "amber" };

export default async function BillingPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireAccountPage("account.view");
  const params = paramsOf(await searchParams);
  const filters = ledgerFiltersSchema.parse(params);
  const [balance, ledger] = await Promise.all([getBalance(user.accountId), listLedger(user.accountId, filters)]);
  return (
    <>
      <PageHeader title="Balance" description="Sends are paid from a prepaid balance. Each message's charge is held when it is accepted and released if it fails; every change is a ledger entry." />
      <div className="mb-6 grid gap-4 sm:grid-cols-3">
        <Stat label="Available" value={<Money value={balance.available} currency={balance.currency} />} testId="balance-available" hint="What new sends can spend" />
        <Stat label="Held for messages in flight" value={<Money value={balance.held} currency={balance.currency} />} testId="balance-held" hint="Released back if a message fails" />
        <Stat label="Currency" value={balance.currency} hint="Credits are added by Tumira staff" />
      </div>
      <Card>
        <CardHeader title="Ledger" description="Every balance change, newest first." />
        <FilterBar resetHref="/dashboard/billing">
          <Field id="ledger-kind" label="Kind">
            <Select id="ledger-kind" name="kind" defaultValue={filters.kind ?? ""}>
              <option value="">All kinds</option>
              <option value="credit">Credit</option>
              <option value="hold">Hold</option>
              <option value="release">Release</option>
              <option value="adjustment">Adjustment</option>
            </Select>
          </Field>
          <Field id="ledger-from" label="From">
            <Input id="ledger-from" name="from" type="date" defaultValue={filters.from} />
          </Field>
          <Field id="ledger-to" label="To">
            <Input id="ledger-to" name="to" type="date" defaultValue={filters.to} />
          </Field>
        </FilterBar>
        {ledger.rows.length === 0 ? (
          <EmptyState title="No ledger entries match" description="Credits appear here when Tumira staff top up the account; holds and releases when messages are sent." />
        ) : (
          <Table>
            <thead>
              <tr>
                <Th>Date</Th>
                <Th>Kind</Th>
                <Th>Description</Th>
                <Th className="text-right">Amount</Th>
                <Th className="text-right">Balance after</Th>
              </tr>
            </thead>
            <tbody>
              {ledger.rows.map((row) => (
                <tr key={row.id} data-testid="ledger-row">
                  <Td className="whitespace-nowrap"><Time value={row.createdAt.toISOString()} /></Td>
                  <Td><Badge tone={kindTone[row.kind] ?? "gray"}>{row.kind}</Badge></Td>
                  <Td className="max-w-md">
                    {row.messageId ? (
                      <Link href={`/dashboard/messages/${row.messageId}`} className="font-mono text-xs text-brand-700 hover:underline">{row.messageId}</Link>
                    ) : (
                      <span className="break-words">{row.reason || "—"}</span>
                    )}
                  </Td>
                  <Td className="text-right"><Money value={row.amount} currency={balance.currency} signed precise /></Td>
                  <Td className="text-right text-slate-500"><Money value={row.balanceAfter} currency={balance.currency} /></Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
        {(filters.before || ledger.nextBefore) && (
          <div className="flex justify-between px-5 py-3">
            {filters.before ? <Link className={buttonClass("secondary", "sm")} href={withParams("/dashboard/billing", params, { before: undefined })}>Newest</Link> : <span />}
            {ledger.nextBefore && <Link className={buttonClass("secondary", "sm")} href={withParams("/dashboard/billing", params, { before: String(ledger.nextBefore) })}>Older entries</Link>}
          </div>
        )}
      </Card>
    </>
  );
}
