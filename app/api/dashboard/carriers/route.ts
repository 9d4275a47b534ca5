import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { listCarrierRows } from "@/lib/dashboard/carrier-rows";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute("carriers.view", async () => listCarrierRows());
