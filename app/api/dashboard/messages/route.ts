import { accountIdOf } from "@/lib/dashboard/define-action";
import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { listMessages, messageFiltersSchema } from "@/lib/dashboard/list-messages";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute("messages.view", async (request, user) => {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  return listMessages(accountIdOf(user), messageFiltersSchema.parse(params));
});
