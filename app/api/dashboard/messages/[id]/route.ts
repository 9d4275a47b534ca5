import { z } from "zod";
import { AppError } from "@/lib/errors";
import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { getMessageDetail } from "@/lib/dashboard/get-message-detail";
import { requireMessageScope } from "@/lib/dashboard/message-scope";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async (_request, context: { params: Promise<{ id: string }> }) => {
  const scope = await requireMessageScope();
  const id = z.uuid().safeParse((await context.params).id);
  if (!id.success) throw AppError.notFound("Message");
  return getMessageDetail(id.data, scope);
});
