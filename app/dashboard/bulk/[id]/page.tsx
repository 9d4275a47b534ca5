import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { guardPage, requireAnyPermission } from "@/lib/auth/require-permission";
import { can } from "@/lib/auth/permissions";
import { messageReaders, messageScopeOf, readInView } from "@/lib/dashboard/message-scope";
import { getViewMode } from "@/lib/dashboard/view-mode";
import { InOtherView } from "../../view-mode-switch";
import { getBulkReport, REPORT_STATES, type ReportState } from "@/lib/dashboard/get-bulk-report";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { BulkTimelineChart } from "@/components/bulk-timeline-chart";
import { Money } from "@/components/money";
import { Stat } from "@/components/stat";
import { Time } from "@/components/time";
import { CancelBulkButton } from "./cancel-bulk-button";

export const metadata: Metadata = { title: "Bulk send report" };

const STATE_WORDS: Record<ReportState, string> = {
  scheduled: "Scheduled",
  queued: "Queued",
  sending: "Sending",
  sent: "Sent",
  delivered: "Delivered",
  failed: "Failed",
};

type Report = Awaited<ReturnType<typeof getBulkReport>>;
type CarrierRow = Report["carriers"][number];
type FailureRow = Report["failures"][number];

const carrierColumns: Column<CarrierRow>[] = [
  { key: "carrier", header: "Carrier", nowrap: true, cell: (row) => row.name },
  ...REPORT_STATES.map((state): Column<CarrierRow> => ({
    key: state,
    header: STATE_WORDS[state],
    numeric: true,
    cell: (row) => row.counts[state],
  })),
  { key: "total", header: "Total", numeric: true, cell: (row) => row.total },
];

const failureColumns: Column<FailureRow>[] = [
  { key: "reason", header: "Reason", cell: (row) => row.words ?? "Not a carrier code" },
  { key: "code", header: "Code", cell: (row) => <code className="font-mono text-xs break-all text-slate-500">{row.code}</code> },
  { key: "count", header: "Messages", numeric: true, cell: (row) => row.count },
];

export default async function BulkReportPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await guardPage(() => requireAnyPermission(messageReaders));
  const mode = await getViewMode();
  const scope = messageScopeOf(user, mode);
  const id = z.uuid().safeParse((await params).id);
  if (!id.success) notFound();
  const report = await readInView(scope, (within) => getBulkReport(id.data, within));
  if (report === "other-view") return <InOtherView title="Bulk send" what="bulk send" mode={mode} />;
  if (!report) notFound();
  const platformView = "platform" in scope;
  return (
    <>
      <PageHeader
        title={`Bulk send …${report.id.slice(-8)}`}
        description={
          <>
            {report.total.toLocaleString("en")} messages from {report.senderId},{" "}
            {report.sendAt ? (
              <>
                scheduled for <Time value={report.sendAt.toISOString()} /> (accepted <Time value={report.createdAt.toISOString()} />)
              </>
            ) : (
              <>
                sent <Time value={report.createdAt.toISOString()} />
              </>
            )}
            .
          </>
        }
        actions={
          <>
            {!platformView && can(user.role, "messages.send") && report.cancellable > 0 && (
              <CancelBulkButton bulkSendId={report.id} test={report.test} waiting={report.cancellable} />
            )}
            <a
              href={`/api/dashboard/bulk/${report.id}/recipients`}
              download
              className={buttonClass("secondary")}
              data-testid="recipients-csv"
            >
              Recipients CSV
            </a>
          </>
        }
      />
      <div className="mb-4 flex flex-wrap items-center gap-3 text-sm text-slate-600">
        <code className="font-mono text-xs break-all">{report.id}</code>
        {report.test && <Badge tone="amber">Test</Badge>}
        {!platformView && (
          <Link href={`/dashboard/messages?bulk=${report.id}`} className="text-brand-700 hover:underline" data-testid="bulk-messages-link">
            Every message
          </Link>
        )}
      </div>
      <div className="mb-6 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-6" data-testid="bulk-counts">
        {REPORT_STATES.map((state) => (
          <Stat key={state} label={STATE_WORDS[state]} value={report.counts[state].toLocaleString("en")} testId={`bulk-count-${state}`} />
        ))}
      </div>
      <div className="mb-6 grid gap-4 sm:grid-cols-3">
        <Stat
          label="Held"
          value={<Money value={report.held} currency={report.currency} />}
          testId="bulk-held"
          hint={report.test ? "Test messages are never charged" : "Charged when the messages were accepted"}
        />
        <Stat
          label="Refunded"
          value={<Money value={report.refunded} currency={report.currency} />}
          testId="bulk-refunded"
          hint={`${report.refundCount.toLocaleString("en")} failed ${report.refundCount === 1 ? "message" : "messages"} released`}
        />
        <Stat label="Net cost" value={<Money value={report.net} currency={report.currency} />} testId="bulk-net" hint="Held less refunds" />
      </div>
      <div className="min-w-0 space-y-6">
        <Card>
          <CardHeader
            title={`States reached per ${report.timelineUnit}`}
            description="When each message was sent, delivered or failed (UTC)."
          />
          <CardBody className="h-64" data-testid="bulk-timeline">
            <BulkTimelineChart buckets={report.timeline} unit={report.timelineUnit} />
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="Per carrier" description="Each carrier's messages by state." />
          <DataTable
            columns={carrierColumns}
            rows={report.carriers}
            rowKey={(row) => row.operator}
            rowAttributes={(row) => ({ "data-testid": "bulk-carrier", "data-carrier": row.operator })}
            empty={null}
          />
        </Card>
        <Card>
          <CardHeader title="Failure reasons" description="Failed messages grouped by the carrier's or the gateway's reason." />
          <DataTable
            columns={failureColumns}
            rows={report.failures}
            rowKey={(row) => row.code}
            rowAttributes={(row) => ({ "data-testid": "bulk-failure", "data-code": row.code })}
            empty={<EmptyState icon="signal" title="No failures" description="No message of this bulk send has failed." />}
          />
        </Card>
        {report.body !== null && (
          <Card>
            <CardHeader title="Message" />
            <CardBody>
              <p className="text-sm break-words whitespace-pre-wrap text-slate-800" data-testid="bulk-body">
                {report.body}
              </p>
              <p className="mt-2 text-xs text-slate-500">
                Created <Time value={report.createdAt.toISOString()} seconds />
              </p>
            </CardBody>
          </Card>
        )}
      </div>
    </>
  );
}
