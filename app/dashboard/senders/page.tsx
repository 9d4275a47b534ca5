import type { Metadata } from "next";
import { requireAccountPage } from "@/lib/auth/require-permission";
import { can } from "@/lib/auth/permissions";
import { listSenders } from "@/lib/senders/list-senders";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";
import { EmptyState } from "@/components/ui/empty-state";
import { Time } from "@/components/time";
import { RequestSenderForm } from "./request-sender-form";

export const metadata: Metadata = { title: "Sender IDs" };

const statusTone = { approved: "green", pending: "amber", rejected: "red" } as const;

export default async function SendersPage() {
  const user = await requireAccountPage("account.view");
  const senders = await listSenders(user.accountId);
  return (
    <>
      <PageHeader title="Sender IDs" description="The name recipients see as the sender. Messages can only be sent from an approved sender id; Tumira staff review each request." />
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
        {senders.length === 0 ? (
          <EmptyState title="No sender ids yet" description="Request one above; you can send from it once an administrator approves it." />
        ) : (
          <Table>
            <thead>
              <tr>
                <Th>Sender id</Th>
                <Th>Status</Th>
                <Th>Requested</Th>
                <Th>Approved</Th>
              </tr>
            </thead>
            <tbody>
              {senders.map((sender) => (
                <tr key={sender.id} data-testid="sender-row">
                  <Td className="font-medium text-slate-900">{sender.name}</Td>
                  <Td><Badge tone={statusTone[sender.status as keyof typeof statusTone] ?? "gray"}>{sender.status}</Badge></Td>
                  <Td><Time value={sender.createdAt.toISOString()} /></Td>
                  <Td><Time value={sender.approvedAt?.toISOString() ?? null} /></Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
    </>
  );
}
