import type { Metadata } from "next";
import { requireAccountPage } from "@/lib/auth/require-permission";
import { BODY_SEARCH_ROLES, listMessages, parseMessageFilters } from "@/lib/dashboard/list-messages";
import { paramsOf } from "@/lib/dashboard/filters";
import { getViewMode } from "@/lib/dashboard/view-mode";
import { PageHeader } from "@/components/ui/page-header";
import { ButtonLink } from "@/components/ui/button";
import { MessagesView } from "./messages-view";

export const metadata: Metadata = { title: "Messages" };

export default async function MessagesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireAccountPage("messages.view");
  const params = paramsOf(await searchParams);
  const { filters, problems } = parseMessageFilters(params, user.role);
  const mode = await getViewMode();
  const firstPage = await listMessages(user.accountId, filters, mode);
  return (
    <>
      <PageHeader
        title="Messages"
        description={`Every ${mode === "test" ? "test-key" : "live"} message of the account, newest first. Statuses refresh on their own while messages are on their way.`}
        actions={<ButtonLink href="/dashboard/compose">Compose</ButtonLink>}
      />
      <MessagesView
        filters={filters}
        params={params}
        bodySearch={BODY_SEARCH_ROLES.includes(user.role)}
        problems={problems.map((problem) => problem.description)}
        initialPage={firstPage}
        mode={mode}
      />
    </>
  );
}
