import type { Metadata } from "next";
import { requireAccountPage } from "@/lib/auth/require-permission";
import { listOptOutPage } from "@/lib/dashboard/list-opt-outs";
import { PageHeader } from "@/components/ui/page-header";
import { can } from "@/lib/auth/permissions";
import { readOptOutSettings } from "@/lib/opt-outs/opt-out-settings";
import { listSenders } from "@/lib/senders/list-senders";
import { OptOutsView } from "./opt-outs-view";
import { KeywordsCard } from "./keywords-card";

export const metadata: Metadata = { title: "Opt-outs" };

export default async function OptOutsPage({ searchParams }: { searchParams: Promise<{ cursor?: string }> }) {
  const user = await requireAccountPage("optouts.manage");
  const { cursor } = await searchParams;
  const page = await listOptOutPage(user.accountId, typeof cursor === "string" && cursor ? cursor : null).catch(() =>
    // A cursor that is not one this page gave starts the list again.
    listOptOutPage(user.accountId, null),
  );
  const [settings, senders] = await Promise.all([readOptOutSettings(user.accountId), listSenders(user.accountId)]);
  return (
    <>
      <PageHeader
        title="Opt-outs"
        description="Numbers your account never sends to. A send to one is refused and not charged; a bulk send skips it. The list is shared by the dashboard and every API key, test and live."
      />
      <div className="space-y-6">
        <OptOutsView rows={page.rows} nextCursor={page.nextCursor} firstPage={!cursor} changes={page.changes} />
        <KeywordsCard
          settings={settings}
          canEdit={can(user.role, "optouts.settings")}
          hasApprovedSender={senders.some((sender) => sender.status === "approved")}
        />
      </div>
    </>
  );
}
