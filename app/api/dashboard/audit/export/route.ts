import { AppError } from "@/lib/errors";
import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { auditScopeOf } from "@/lib/dashboard/audit-scope";
import { exportAuditEvents, parseAuditFilters } from "@/lib/dashboard/list-audit-events";

export const dynamic = "force-dynamic";

/** The filtered audit log as CSV, streamed a chunk at a time whatever its size. */
export const GET = dashboardRoute("audit.view", async (request, user) => {
  const { filters, problems } = parseAuditFilters(Object.fromEntries(new URL(request.url).searchParams));
  if (problems.length > 0) throw AppError.validation(problems);
  const lines = exportAuditEvents(auditScopeOf(user), filters);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="tumira-audit-${day}.csv"`,
      "cache-control": "no-store",
    },
  });
});
