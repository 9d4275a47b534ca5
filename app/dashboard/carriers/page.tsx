import type { Metadata } from "next";
import { requirePagePermission } from "@/lib/auth/require-permission";
import { can } from "@/lib/auth/permissions";
import { listCarrierRows } from "@/lib/dashboard/carrier-rows";
import { PageHeader } from "@/components/ui/page-header";
import { CarriersView } from "./carriers-view";

export const metadata: Metadata = { title: "Carriers" };

export default async function CarriersPage() {
  const user = await requirePagePermission("carriers.view");
  const rows = await listCarrierRows();
  const canManage = can(user.role, "carriers.manage");
  return (
    <>
      <PageHeader
        title="Carriers"
        description={
          canManage
            ? "Each carrier's binds as the dispatchers report them, its queue, and a pause for when a carrier misbehaves: a paused carrier's messages wait in the queue until you resume it."
            : "Each carrier's binds as the dispatchers report them, and its queue. Platform admins can pause and resume a carrier."
        }
      />
      <CarriersView initial={rows} canManage={canManage} />
    </>
  );
}
