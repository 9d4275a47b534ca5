import { messageStatusLabel, webhookStatusLabel } from "@/lib/messages/vocabulary";
import { Time } from "./time";
import { Badge } from "./ui/badge";

/**
 * A message's state in the dashboard's one vocabulary (lib/messages/vocabulary.ts). Given its
 * send_at, a scheduled message says when it goes: "Scheduled for 29 Nov 2026, 10:00".
 */
export function MessageStatus({ status, deliveredAt, sendAt }: { status: string; deliveredAt: string | null; sendAt?: string | null }) {
  const { label, tone } = messageStatusLabel(status, deliveredAt);
  return (
    <Badge tone={tone} className="status-badge">
      {(status === "processing" || status === "enqueued") && !deliveredAt && (
        <span aria-hidden className="h-1.5 w-1.5 animate-pulse rounded-full bg-current" />
      )}
      {label}
      {status === "created" && sendAt && (
        <>
          {" for "}
          <Time value={sendAt} />
        </>
      )}
    </Badge>
  );
}

/** A webhook delivery's state in the same vocabulary: Delivered, Retrying, Given up. */
export function WebhookDeliveryStatus({ status }: { status: string }) {
  const { label, tone } = webhookStatusLabel(status);
  return <Badge tone={tone}>{label}</Badge>;
}
