import type { Metadata } from "next";
import { requireAccountPage } from "@/lib/auth/require-permission";
import { listSenders } from "@/lib/senders/list-senders";
import { getAccountRates } from "@/lib/rates/rates";
import { getBalance } from "@/lib/ledger/get-balance";
import { getAccountTimeZone } from "@/lib/accounts/account-time-zone";
import { operators } from "@/lib/carriers/operators";
import type { RateTable } from "@/lib/dashboard/price-send";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ButtonLink } from "@/components/ui/button";
import { ComposeView } from "./compose-view";
import { getViewMode } from "@/lib/dashboard/view-mode";

export const metadata: Metadata = { title: "Compose" };

export default async function ComposePage({ searchParams }: { searchParams: Promise<{ mode?: string }> }) {
  const user = await requireAccountPage("messages.send");
  const [senders, rates, balance, timeZone, { mode }, view] = await Promise.all([
    listSenders(user.accountId),
    getAccountRates(user.accountId),
    getBalance(user.accountId),
    getAccountTimeZone(user.accountId),
    searchParams,
    getViewMode(),
  ]);
  const approved = senders.filter((sender) => sender.status === "approved").map((sender) => sender.name);
  const rateTable = Object.fromEntries(operators.map((operator) => [operator, rates[operator].toString()])) as RateTable;
  return (
    <>
      <PageHeader
        title="Compose"
        description={`Send to one number or to a list. Sends from here go through the same checks, pricing and balance as the API.${view === "test" ? " They are live messages, charged and listed with the test data off, whichever view is on." : ""}`}
      />
      {approved.length === 0 ? (
        <Card>
          <EmptyState
            icon="tag"
            title="No approved sender id yet"
            description="Every message goes out under an approved sender id. Request one; you can send once an administrator approves it."
            action={<ButtonLink href="/dashboard/senders">Request a sender id</ButtonLink>}
          />
        </Card>
      ) : (
        <ComposeView
          senders={approved}
          rates={rateTable}
          currency={balance.currency}
          available={balance.available.toString()}
          initialMode={mode === "bulk" ? "bulk" : "single"}
          timeZone={timeZone}
        />
      )}
    </>
  );
}
