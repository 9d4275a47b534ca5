import type { Metadata } from "next";
import { requirePagePermission } from "@/lib/auth/require-permission";
import { listAccounts, listPendingSenders } from "@/lib/dashboard/list-accounts";
import { PageHeader } from "@/components/ui/page-header";
import { AdminView } from "./admin-view";

export const metadata: Metadata = { title: "Accounts" };

export default async function AdminPage() {
  await requirePagePermission("platform.accounts");
  const [accounts, pending] = await Promise.all([listAccounts(), listPendingSenders()]);
  return (
    <>
      <PageHeader
        title="Accounts"
        description="Approve sender id requests and credit prepaid balances. Every credit is a ledger entry with your name and reason on it."
      />
      <AdminView
        accounts={accounts.map((account) => ({
          id: account.id,
          name: account.name,
          currency: account.currency,
          balance: account.balance.toString(),
          members: account.members,
          createdAt: account.createdAt.toISOString(),
        }))}
        pending={pending.map((sender) => ({ ...sender, createdAt: sender.createdAt.toISOString() }))}
      />
    </>
  );
}
