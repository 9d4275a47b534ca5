import { z } from "zod";
import { AppError } from "@/lib/errors";
import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { messageReaders, messageScopeOf } from "@/lib/dashboard/message-scope";
import { bulkRecipientsCsv } from "@/lib/dashboard/get-bulk-report";

export const dynamic = "force-dynamic";

/** Every recipient of a bulk send with its message's outcome, as CSV streamed a chunk at a time. */
export const GET = dashboardRoute(messageReaders, async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const id = z.uuid().safeParse((await context.params).id);
  if (!id.success) throw AppError.notFound("Bulk send");
  const lines = bulkRecipientsCsv(id.data, messageScopeOf(user));
  // The first read checks the bulk send is the user's: a 404 before any byte is sent.
  const header = await lines.next();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (!header.done) controller.enqueue(encoder.encode(header.value));
    },
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="tumira-bulk-${id.data.slice(-8)}-recipients.csv"`,
      "cache-control": "no-store",
    },
  });
});
