import type { Metadata } from "next";
import Link from "next/link";
import { requirePagePermission } from "@/lib/auth/require-permission";
import { lookupMessages, lookupQuerySchema, type LookupPage, type LookupRow } from "@/lib/dashboard/lookup-messages";
import { paramsOf } from "@/lib/dashboard/filters";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/field";
import { FilterForm, withParams } from "@/components/ui/filter-form";
import { MessageStatus } from "@/components/status-badge";
import { carrierName } from "@/lib/messages/vocabulary";
import { Time } from "@/components/time";

export const metadata: Metadata = { title: "Message lookup" };

const columns: Column<LookupRow>[] = [
  {
    key: "message",
    header: "Message",
    cell: (row) => (
      <Link href={`/dashboard/messages/${row.id}`} className="font-mono text-xs text-brand-700 hover:underline">
        {row.id}
      </Link>
    ),
  },
  {
    key: "account",
    header: "Account",
    className: "font-medium text-slate-900",
    cell: (row) => <span data-testid="lookup-account">{row.accountName}</span>,
  },
  { key: "recipient", header: "Recipient", nowrap: true, cell: (row) => row.to },
  {
    key: "status",
    header: "Status",
    nowrap: true,
    cell: (row) => <MessageStatus status={row.status} deliveredAt={row.deliveredAt?.toISOString() ?? null} />,
  },
  { key: "carrier", header: "Carrier", cell: (row) => carrierName(row.operator) },
  { key: "sent", header: "Sent", nowrap: true, cell: (row) => <Time value={row.createdAt.toISOString()} /> },
];

export default async function SupportPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePagePermission("platform.lookup");
  const params = paramsOf(await searchParams);
  const query = params.q ?? "";
  const valid = lookupQuerySchema.safeParse(query);
  const page: LookupPage = valid.success ? await lookupMessages(valid.data, params.cursor) : { rows: [], nextCursor: null };
  return (
    <>
      <PageHeader
        title="Message lookup"
        description="Find any account's message by its id, the first characters of its id, or the recipient's number, to answer “where is my message?”. Read-only; message bodies stay private."
      />
      <Card>
        <FilterForm submitLabel="Search" problems={query && !valid.success ? [`Search: ${valid.error.issues[0].message}`] : []}>
          <div className="sm:col-span-2 lg:col-span-3">
            <label htmlFor="lookup-q" className="sr-only">
              Message id or phone number
            </label>
            <Input
              id="lookup-q"
              name="q"
              defaultValue={query}
              placeholder="Message id, its first 8 characters, or a phone number, e.g. 0771234567"
              className="font-mono text-sm"
              autoFocus
            />
          </div>
        </FilterForm>
        <DataTable
          columns={columns}
          rows={page.rows}
          rowKey={(row) => row.id}
          rowAttributes={() => ({ "data-testid": "lookup-row" })}
          empty={
            !valid.success ? (
              <EmptyState
                icon="search"
                title="Search across all accounts"
                description="Paste the message id the customer gave you (or its first characters), or their recipient's phone number in any format."
              />
            ) : (
              <EmptyState
                icon="inbox"
                title="No message found"
                description="Check the id, or try the number in another format (+263…, 0…)."
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
