import { AppError } from "@/lib/errors";
import { accountIdOf } from "@/lib/dashboard/define-action";
import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { messageSearchOf, parseMessageFilters } from "@/lib/dashboard/list-messages";
import { messagesCsv } from "@/lib/messages/messages-csv";
import { csvDownload } from "@/lib/dashboard/csv-download";
import { getViewMode } from "@/lib/dashboard/view-mode";

export const dynamic = "force-dynamic";

/** The message list's filtered rows of the user's view (test or live), every page of them, as CSV streamed a chunk at a time whatever its size. */
export const GET = dashboardRoute("messages.view", async (request, user) => {
  const { filters, problems } = parseMessageFilters(Object.fromEntries(new URL(request.url).searchParams), user.role);
  if (problems.length > 0) throw AppError.validation(problems);
  const { cursor: _page, ...everyPage } = filters;
  const lines = messagesCsv(messageSearchOf(accountIdOf(user), everyPage, await getViewMode()));
  return csvDownload("messages", lines);
});
