import type { Metadata } from "next";
import { requirePagePermission } from "@/lib/auth/require-permission";
import { listAccounts, listPendingSenders, parseAccountFilters } from "@/lib/dashboard/list-accounts";
import { paramsOf } from "@/lib/dashboard/filters";
import { listRecentCredits } from "@/lib/ledger/list-credits";
import { describeActors } from "@/lib/dashboard/list-audit-events";
import { PageHeader } from "@/components/ui/page-header";
import { withParams } from "@/components/ui/filter-form";
import { listAllInboundNumbers } from "@/lib/inbound/inbound-numbers";
import { AdminView } from "./admin-view";
import { InboundNumbersCard } from "./inbound-numbers-card";

export const metadata: Metadata = { title: "Accounts" };

export default async function AdminPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePagePermission("platform.accounts");
  const params = paramsOf(await searchParams);
  const { filters, problems } = parseAccountFilters(params);
  const [accounts, pending, credits, numbers] = await Promise.all([
    listAccounts(filters),
    listPendingSenders(),
    listRecentCredits(),
    listAllInboundNumbers(),
  ]);
  const actors = await describeActors(credits.map((credit) => credit.actor));
  return (
    <>
      <PageHeader
        title="Accounts"
        description="Review sender id requests and credit prepaid balances. Every credit and every reversal is a ledger entry with your name and reason on it."
      />
      <AdminView
        accounts={{
          rows: accounts.rows.map((account) => ({
            id: account.id,
            name: account.name,
            currency: account.currency,
            balance: account.balance.toString(),
            members: account.members,
            createdAt: account.createdAt.toISOString(),
          })),
          name: filters.name,
          problems: problems.map((problem) => problem.description),
          pagination: {
            firstHref: filters.cursor ? withParams("/dashboard/admin", params, { cursor: undefined }) : undefined,
            nextHref: accounts.nextCursor ? withParams("/dashboard/admin", params, { cursor: accounts.nextCursor }) : undefined,
          },
        }}
        pending={pending.map((sender) => ({ ...sender, createdAt: sender.createdAt.toISOString() }))}
        credits={credits.map((credit) => ({
          ...credit,
          actor: actors.get(credit.actor) ?? credit.actor,
          amount: credit.amount.toString(),
          createdAt: credit.createdAt.toISOString(),
        }))}
      />
      <InboundNumbersCard
        numbers={numbers.map((row) => ({
          id: row.id,
          number: row.number,
          accountName: row.accountName,
          operator: row.operator,
          assignedAt: row.assignedAt.toISOString(),
        }))}
      />
    </>
  );
}
