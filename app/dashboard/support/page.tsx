import type { Metadata } from "next";
import Link from "next/link";
import { requirePagePermission } from "@/lib/auth/require-permission";
import { lookupMessages, parseLookupFilters, type LookupPage, type LookupRow } from "@/lib/dashboard/lookup-messages";
import { paramsOf } from "@/lib/dashboard/filters";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input } from "@/components/ui/field";
import { FilterForm, withParams } from "@/components/ui/filter-form";
import { MessageStatus } from "@/components/status-badge";
import { carrierName } from "@/lib/messages/vocabulary";
import { SENDER_NAME_MAX_LENGTH } from "@/lib/senders/sender-name";
import { Time } from "@/components/time";

export const metadata: Metadata = { title: "Message lookup" };

const columns: Column<LookupRow>[] = [
  {
    key: "message",
    header: "Message",
    cell: (row) => (
      <>
        <Link href={`/dashboard/messages/${row.id}`} className="font-mono text-xs text-brand-700 hover:underline">
          {row.id}
        </Link>
        {row.test && (
          <Badge tone="violet" className="ml-2">
            Test
          </Badge>
        )}
      </>
    ),
  },
  {
    key: "account",
    header: "Account and owners",
    className: "min-w-48",
    cell: (row) => (
      <>
        <p className="font-medium text-slate-900" data-testid="lookup-account">
          {row.accountName}
        </p>
        <ul data-testid="lookup-owners" className="text-xs text-slate-500">
          {row.owners.length === 0 && <li>No owner</li>}
          {row.owners.map((owner) => (
            <li key={owner.email} className="wrap-anywhere">
              {owner.name ? `${owner.name}, ` : ""}
              <a href={`mailto:${owner.email}`} className="text-brand-700 hover:underline">
                {owner.email}
              </a>
            </li>
          ))}
        </ul>
      </>
    ),
  },
  { key: "recipient", header: "Recipient", nowrap: true, cell: (row) => row.to },
  { key: "sender", header: "Sender id", nowrap: true, cell: (row) => <span data-testid="lookup-sender">{row.senderId}</span> },
  {
    key: "status",
    header: "Status",
    nowrap: true,
    cell: (row) => <MessageStatus status={row.status} deliveredAt={row.deliveredAt?.toISOString() ?? null} />,
  },
  { key: "carrier", header: "Carrier", cell: (row) => carrierName(row.operator) },
  { key: "created", header: "Created", nowrap: true, cell: (row) => <Time value={row.createdAt.toISOString()} /> },
];

export default async function SupportPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePagePermission("platform.lookup");
  const params = paramsOf(await searchParams);
  const { filters, problems, ready } = parseLookupFilters(params);
  const page: LookupPage = ready ? await lookupMessages(filters) : { rows: [], nextCursor: null };
  return (
    <>
      <PageHeader
        title="Message lookup"
        description="Find any account's messages by id (or its first characters), recipient number or sender id, within dates if you like, to answer “where is my message?”. Each result names the account's owners to follow up with. Read-only; message bodies stay private."
      />
      <Card>
        <FilterForm submitLabel="Search" resetHref="/dashboard/support" problems={problems.map((problem) => problem.description)}>
          <Field id="lookup-q" label="Message id or phone number" className="sm:col-span-2 lg:col-span-1">
            <Input
              id="lookup-q"
              name="q"
              defaultValue={params.q}
              placeholder="Id, its first 8 characters, or 0771234567"
              className="font-mono text-sm"
              autoFocus
            />
          </Field>
          <Field id="lookup-sender" label="Sender id">
            <Input id="lookup-sender" name="sender" defaultValue={params.sender} maxLength={SENDER_NAME_MAX_LENGTH} placeholder="ACME" />
          </Field>
          <Field id="lookup-since" label="From">
            <Input id="lookup-since" name="since" type="date" defaultValue={params.since} />
          </Field>
          <Field id="lookup-until" label="To">
            <Input id="lookup-until" name="until" type="date" defaultValue={params.until} />
          </Field>
        </FilterForm>
        <DataTable
          columns={columns}
          rows={page.rows}
          rowKey={(row) => row.id}
          rowAttributes={() => ({ "data-testid": "lookup-row" })}
          empty={
            !ready ? (
              <EmptyState
                icon="search"
                title="Search across all accounts"
                description="Paste the message id the customer gave you (or its first characters), their recipient's phone number in any format, or the sender id they sent from; add dates (UTC days) to narrow it."
              />
            ) : (
              <EmptyState
                icon="inbox"
                title="No message found"
                description="No account has a message matching all of these. Check the id, the number and the sender id (any case, any way the number is written finds the same); the dates, when set, are UTC days."
              />
            )
          }
          pagination={{
            firstHref: params.cursor ? withParams("/dashboard/support", params, { cursor: undefined }) : undefined,
            nextHref: page.nextCursor ? withParams("/dashboard/support", params, { cursor: page.nextCursor }) : undefined,
          }}
        />
      </Card>
    </>
  );
}
