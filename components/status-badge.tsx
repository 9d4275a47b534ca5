import { Badge, type BadgeTone } from "./ui/badge";

const labels: Record<string, { label: string; tone: BadgeTone }> = {
  created: { label: "Created", tone: "gray" },
  enqueued: { label: "Queued", tone: "gray" },
  processing: { label: "Sending", tone: "blue" },
  success: { label: "Sent", tone: "blue" },
  failed: { label: "Failed", tone: "red" },
};

/** A message's state as a reader thinks of it: delivered (receipt in) beats the carrier's acceptance. */
export function MessageStatus({ status, deliveredAt }: { status: string; deliveredAt: string | null }) {
  if (deliveredAt && status === "success")
    return (
      <Badge tone="green" className="status-badge">
        Delivered
      </Badge>
    );
  const { label, tone } = labels[status] ?? { label: status, tone: "gray" as const };
  return (
    <Badge tone={tone} className="status-badge">
      {(status === "processing" || status === "enqueued") && (
        <span aria-hidden className="h-1.5 w-1.5 animate-pulse rounded-full bg-current" />
      )}
      {label}
    </Badge>
  );
}
