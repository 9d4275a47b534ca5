import type { Metadata } from "next";
import { requirePagePermission } from "@/lib/auth/require-permission";
import { listPendingTopUps } from "@/lib/ledger/top-up-requests";
import { PageHeader } from "@/components/ui/page-header";
import { TopUpsView } from "./top-ups-view";

export const metadata: Metadata = { title: "Top-up requests" };

export default async function TopUpsPage() {
  await requirePagePermission("balance.credit");
  const pending = await listPendingTopUps();
  return (
    <>
      <PageHeader
        title="Top-up requests"
        description="Owners' requests to credit their balance, oldest first. Match the payment's reference before approving: approval credits the amount once, as a ledger credit naming the request; a decline's reason is shown to the account."
      />
      <TopUpsView
        requests={pending.map((request) => ({
          id: request.id,
          accountName: request.accountName,
          amount: request.amount.toString(),
          currency: request.currency,
          reference: request.reference,
          note: request.note,
          requestedBy: request.requestedBy,
          createdAt: request.createdAt.toISOString(),
        }))}
      />
    </>
  );
}
