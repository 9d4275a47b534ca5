import { messageStatusLabel } from "@/lib/messages/vocabulary";
import { Badge } from "./ui/badge";

/** A message's state in the dashboard's one vocabulary (lib/messages/vocabulary.ts). */
export function MessageStatus({ status, deliveredAt }: { status: string; deliveredAt: string | null }) {
  const { label, tone } = messageStatusLabel(status, deliveredAt);
  return (
    <Badge tone={tone} className="status-badge">
      {(status === "processing" || status === "enqueued") && !deliveredAt && (
        <span aria-hidden className="h-1.5 w-1.5 animate-pulse rounded-full bg-current" />
      )}
      {label}
    </Badge>
  );
}
