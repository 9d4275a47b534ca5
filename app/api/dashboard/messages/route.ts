import { requireAccountPermission } from "@/lib/auth/require-permission";
import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { listMessages, messageFiltersSchema } from "@/lib/dashboard/list-messages";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async (request) => {
  const user = await requireAccountPermission("messages.view");
  const params = Object.fromEntries(new URL(request.url).searchParams);
  return listMessages(user.accountId, messageFiltersSchema.parse(params));
});
