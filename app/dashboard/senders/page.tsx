import type { Metadata } from "next";
import { requireAccountPage } from "@/lib/auth/require-permission";
import { can } from "@/lib/auth/permissions";
import { listSenders } from "@/lib/senders/list-senders";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Time } from "@/components/time";
import { RequestSenderForm } from "./request-sender-form";

export const metadata: Metadata = { title: "Sender IDs" };

const statusTone = { approved: "green", pending: "amber", rejected: "red" } as const;
const statusLabel = { approved: "Approved", pending: "Pending review", rejected: "Rejected" } as const;

type SenderRow = Awaited<ReturnType<typeof listSenders>>[number];

const columns: Column<SenderRow>[] = [
  { key: "name", header: "Sender id", className: "font-medium text-slate-900 break-all", cell: (sender) => sender.name },
  {
    key: "status",
    header: "Status",
    cell: (sender) => (
      <>
        <Badge tone={statusTone[sender.status as keyof typeof statusTone] ?? "gray"}>
          {statusLabel[sender.status as keyof typeof statusLabel] ?? sender.status}
        </Badge>
        {sender.status === "rejected" && sender.rejectedReason && (
          <p className="mt-1 text-xs break-words text-red-700" data-testid="sender-rejection-reason">
            {sender.rejectedReason}
          </p>
        )}
      </>
    ),
  },
  {
    key: "useCase",
    header: "Use",
    className: "text-slate-600 break-words",
    cell: (sender) => sender.useCase || <span className="text-slate-400">Not stated</span>,
  },
  { key: "requested", header: "Requested", nowrap: true, cell: (sender) => <Time value={sender.createdAt.toISOString()} /> },
  {
    key: "reviewed",
    header: "Reviewed",
    nowrap: true,
    cell: (sender) => <Time value={(sender.reviewedAt ?? sender.approvedAt)?.toISOString() ?? null} />,
  },
];

export default async function SendersPage() {
  const user = await requireAccountPage("account.view");
  const senders = await listSenders(user.accountId);
  return (
    <>
      <PageHeader
        title="Sender IDs"
        description="The name recipients see as the sender. Messages can only be sent from an approved sender id; Tumira staff review each request, and a rejected one shows why (request it again to send it back for review)."
      />
      {can(user.role, "senders.request") && (
        <Card className="mb-6">
          <CardHeader title="Request a sender id" />
          <CardBody>
            <RequestSenderForm />
          </CardBody>
        </Card>
      )}
      <Card>
        <CardHeader title="Your sender ids" />
        <DataTable
          columns={columns}
          rows={senders}
          rowKey={(sender) => sender.id}
          rowAttributes={() => ({ "data-testid": "sender-row" })}
          empty={
            <EmptyState
              icon="tag"
              title="No sender ids yet"
              description="Request one above; you can send from it once an administrator approves it."
            />
          }
        />
      </Card>
    </>
  );
}
