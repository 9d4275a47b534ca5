import type { Metadata } from "next";
import { requireAccountPage } from "@/lib/auth/require-permission";
import { listApiKeys } from "@/lib/keys/list-api-keys";
import { PageHeader } from "@/components/ui/page-header";
import { KeysView, type KeyRow } from "./keys-view";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage() {
  const user = await requireAccountPage("keys.manage");
  const keys: KeyRow[] = (await listApiKeys(user.accountId)).map((key) => ({
    id: key.id,
    name: key.name,
    prefix: key.tokenPrefix,
    mode: key.mode,
    active: key.active,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    createdAt: key.createdAt.toISOString(),
  }));
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys authenticate every request to the Tumira API as this account. A key's secret is shown once, when it is created; Tumira stores only a hash."
      />
      <KeysView keys={keys} />
    </>
  );
}
