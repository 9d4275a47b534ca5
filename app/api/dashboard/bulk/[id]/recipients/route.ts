import { z } from "zod";
import { AppError } from "@/lib/errors";
import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { csvDownload } from "@/lib/dashboard/csv-download";
import { messageReaders, messageScopeOf } from "@/lib/dashboard/message-scope";
import { getViewMode } from "@/lib/dashboard/view-mode";
import { bulkRecipientsCsv } from "@/lib/dashboard/get-bulk-report";

export const dynamic = "force-dynamic";

/** Every recipient of a bulk send with its message's outcome, as CSV streamed a chunk at a time. */
export const GET = dashboardRoute(messageReaders, async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const id = z.uuid().safeParse((await context.params).id);
  if (!id.success) throw AppError.notFound("Bulk send");
  const lines = bulkRecipientsCsv(id.data, messageScopeOf(user, await getViewMode()));
  // The first read checks the bulk send is the user's: a 404 before any byte is sent.
  const header = await lines.next();
  async function* everyLine() {
    if (!header.done) yield header.value;
    yield* lines;
  }
  return csvDownload(`bulk-${id.data.slice(-8)}-recipients`, everyLine());
});
