import type { Metadata } from "next";
import Link from "next/link";
import { requirePagePermission } from "@/lib/auth/require-permission";
import { lookupMessages, lookupQuerySchema } from "@/lib/dashboard/lookup-messages";
import { firstParam } from "@/lib/dashboard/filters";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/field";
import { Table, Td, Th } from "@/components/ui/table";
import { buttonClass } from "@/components/ui/button";
import { MessageStatus } from "@/components/status-badge";
import { Time } from "@/components/time";

export const metadata: Metadata = { title: "Message lookup" };

export default async function SupportPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePagePermission("platform.lookup");
  const query = firstParam((await searchParams).q)?.trim() ?? "";
  const valid = lookupQuerySchema.safeParse(query);
  const rows = valid.success ? await lookupMessages(valid.data) : [];
  return (
    <>
      <PageHeader title="Message lookup" description="Find any account's message by its id or by the recipient's number, to answer “where is my message?”. Read-only; message bodies stay private." />
      <Card>
        <form method="get" role="search" className="flex flex-wrap gap-3 border-b border-slate-100 px-5 py-4">
          <label htmlFor="lookup-q" className="sr-only">Message id or phone number</label>
          <Input id="lookup-q" name="q" defaultValue={query} placeholder="Message id (uuid) or phone number, e.g. 0771234567" className="max-w-xl flex-1 font-mono text-sm" autoFocus />
          <button type="submit" className={buttonClass("primary")}>Search</button>
        </form>
        {!query ? (
          <EmptyState title="Search across all accounts" description="Paste the message id the customer gave you, or their recipient's phone number in any format." />
        ) : !valid.success ? (
          <EmptyState title="Type a little more" description={valid.error.issues[0].message} />
        ) : rows.length === 0 ? (
          <EmptyState title="No message found" description="Check the id, or try the number in another format (+263…, 0…)." />
        ) : (
          <Table>
            <thead>
              <tr><Th>Message</Th><Th>Account</Th><Th>Recipient</Th><Th>Status</Th><Th>Carrier</Th><Th>Sent</Th></tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-testid="lookup-row" className="hover:bg-slate-50">
                  <Td><Link href={`/dashboard/messages/${row.id}`} className="font-mono text-xs text-brand-700 hover:underline">{row.id}</Link></Td>
                  <Td className="font-medium text-slate-900" data-testid="lookup-account">{row.accountName}</Td>
                  <Td>{row.to}</Td>
                  <Td><MessageStatus status={row.status} deliveredAt={row.deliveredAt?.toISOString() ?? null} /></Td>
                  <Td className="capitalize">{row.operator}</Td>
                  <Td className="whitespace-nowrap"><Time value={row.createdAt.toISOString()} /></Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
    </>
  );
}
