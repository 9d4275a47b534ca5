import { z } from "zod";
import { AppError } from "@/lib/errors";
import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { getMessageDetail } from "@/lib/dashboard/get-message-detail";
import { messageReaders, messageScopeOf } from "@/lib/dashboard/message-scope";
import { getViewMode } from "@/lib/dashboard/view-mode";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(messageReaders, async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const id = z.uuid().safeParse((await context.params).id);
  if (!id.success) throw AppError.notFound("Message");
  return getMessageDetail(id.data, messageScopeOf(user, await getViewMode()));
});
