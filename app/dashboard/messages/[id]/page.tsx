import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { guardPage, requireAnyPermission } from "@/lib/auth/require-permission";
import { can } from "@/lib/auth/permissions";
import { messageReaders, messageScopeOf, readInView } from "@/lib/dashboard/message-scope";
import { getViewMode } from "@/lib/dashboard/view-mode";
import { InOtherView } from "../../view-mode-switch";
import { getMessageDetail } from "@/lib/dashboard/get-message-detail";
import { MessageDetailView } from "./message-detail-view";

export const metadata: Metadata = { title: "Message" };

export default async function MessagePage({ params }: { params: Promise<{ id: string }> }) {
  const user = await guardPage(() => requireAnyPermission(messageReaders));
  const mode = await getViewMode();
  const scope = messageScopeOf(user, mode);
  const id = z.uuid().safeParse((await params).id);
  if (!id.success) notFound();
  const detail = await readInView(scope, (within) => getMessageDetail(id.data, within));
  if (detail === "other-view") return <InOtherView title="Message" what="message" mode={mode} />;
  if (!detail) notFound();
  return (
    <MessageDetailView
      initial={detail}
      canRedeliver={can(user.role, "webhooks.redeliver")}
      canCancel={"accountId" in scope && can(user.role, "messages.send")}
      platformView={"platform" in scope}
    />
  );
}
