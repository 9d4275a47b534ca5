import { AppError } from "@/lib/errors";
import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { auditScopeOf } from "@/lib/dashboard/audit-scope";
import { csvDownload } from "@/lib/dashboard/csv-download";
import { exportAuditEvents, parseAuditFilters } from "@/lib/dashboard/list-audit-events";

export const dynamic = "force-dynamic";

/** The filtered audit log as CSV, streamed a chunk at a time whatever its size. */
export const GET = dashboardRoute("audit.view", async (request, user) => {
  const { filters, problems } = parseAuditFilters(Object.fromEntries(new URL(request.url).searchParams));
  if (problems.length > 0) throw AppError.validation(problems);
  return csvDownload("audit", exportAuditEvents(auditScopeOf(user), filters));
});
