import type { Metadata } from "next";
import { requireAccountPage } from "@/lib/auth/require-permission";
import { listKeyRows } from "@/lib/dashboard/list-key-rows";
import { getViewMode } from "@/lib/dashboard/view-mode";
import { PageHeader } from "@/components/ui/page-header";
import { KeysView } from "./keys-view";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage() {
  const user = await requireAccountPage("keys.manage");
  const mode = await getViewMode();
  return (
    <>
      <PageHeader
        title="API keys"
        description={`${mode === "test" ? "Test keys: their messages are simulated and never charged. " : ""}Keys authenticate every request to the Tumira API as this account. A key's secret is shown once, when it is created; Tumira stores only a hash.`}
      />
      <KeysView keys={await listKeyRows(user.accountId, mode)} mode={mode} />
    </>
  );
}
