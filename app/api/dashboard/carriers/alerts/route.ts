import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { listCarrierAlerts } from "@/lib/dashboard/carrier-alerts";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute("carriers.view", async () => listCarrierAlerts());
