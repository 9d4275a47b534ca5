// Platform admin views: every account with its balance, and sender ids waiting for approval.
import { db } from "@/lib/db/client";

export type AccountSummary = { id: string; name: string; currency: string; balance: bigint; createdAt: Date; members: number };

export async function listAccounts(): Promise<AccountSummary[]> {
  const accounts = await db().account.findMany({
    orderBy: [{ name: "asc" }, { id: "asc" }],
    select: { id: true, name: true, currency: true, balance: true, createdAt: true, _count: { select: { users: true } } },
  });
  return accounts.map(({ _count, ...account }) => ({ ...account, members: _count.users }));
}

export async function listPendingSenders(): Promise<
  { id: string; name: string; useCase: string; accountId: string; accountName: string; createdAt: Date }[]
> {
  const senders = await db().senderId.findMany({
    where: { status: "pending" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, name: true, useCase: true, accountId: true, createdAt: true, account: { select: { name: true } } },
  });
  return senders.map(({ account, ...sender }) => ({ ...sender, accountName: account.name }));
}
