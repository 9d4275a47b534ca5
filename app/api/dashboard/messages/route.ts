import { AppError } from "@/lib/errors";
import { accountIdOf } from "@/lib/dashboard/define-action";
import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { listMessages, parseMessageFilters } from "@/lib/dashboard/list-messages";
import { getViewMode } from "@/lib/dashboard/view-mode";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute("messages.view", async (request, user) => {
  const { filters, problems } = parseMessageFilters(Object.fromEntries(new URL(request.url).searchParams), user.role);
  if (problems.length > 0) throw AppError.validation(problems);
  return listMessages(accountIdOf(user), filters, await getViewMode());
});
