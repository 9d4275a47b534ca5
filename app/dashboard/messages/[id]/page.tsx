import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { guardPage, requireAnyPermission } from "@/lib/auth/require-permission";
import { can } from "@/lib/auth/permissions";
import { messageReaders, messageScopeOf } from "@/lib/dashboard/message-scope";
import { getMessageDetail } from "@/lib/dashboard/get-message-detail";
import { MessageDetailView } from "./message-detail-view";

export const metadata: Metadata = { title: "Message" };

export default async function MessagePage({ params }: { params: Promise<{ id: string }> }) {
  const user = await guardPage(() => requireAnyPermission(messageReaders));
  const scope = messageScopeOf(user);
  const id = z.uuid().safeParse((await params).id);
  if (!id.success) notFound();
  const detail = await getMessageDetail(id.data, scope).catch((error) => {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  });
  return <MessageDetailView initial={detail} canRedeliver={can(user.role, "webhooks.redeliver")} platformView={"platform" in scope} />;
}
