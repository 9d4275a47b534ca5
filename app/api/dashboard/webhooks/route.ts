import { accountIdOf } from "@/lib/dashboard/define-action";
import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { listEndpointRows } from "@/lib/dashboard/webhook-endpoint-rows";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute("account.view", async (_request, user) => listEndpointRows(accountIdOf(user)));
