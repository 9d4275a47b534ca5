"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { DataTable, type Column } from "@/components/ui/data-table";
import { MessageStatus, WebhookDeliveryStatus } from "@/components/status-badge";
import { CarrierReason } from "@/components/carrier-reason";
import { carrierName, durationWords, encodingName, ledgerKindLabel, partStatusLabel } from "@/lib/messages/vocabulary";
import { Money } from "@/components/money";
import { Time } from "@/components/time";
import { cn } from "@/components/ui/cn";
import { fetchJson } from "@/lib/dashboard/fetch-json";
import { isAwaitingUpdate, nextPollIn, type MessageState } from "@/lib/dashboard/message-state";
import { RECEIPT_TIMEOUT_EVENT } from "@/lib/messages/message-timeline";
import type { MessageDetail } from "@/lib/dashboard/message-schemas";
import { RedeliverButton } from "./redeliver-button";
import { CancelButton } from "../cancel-button";

const POLL_MS = 1_500;

const eventLabels: Record<string, { label: string; tone: string }> = {
  accepted: { label: "Accepted and charged", tone: "bg-slate-400" },
  dispatched: { label: "Sent to the carrier", tone: "bg-sky-500" },
  retry: { label: "Carrier busy; retrying", tone: "bg-amber-500" },
  success: { label: "Carrier accepted", tone: "bg-sky-600" },
  failed: { label: "Failed", tone: "bg-red-500" },
  delivered: { label: "Delivered to the handset", tone: "bg-emerald-500" },
  refunded: { label: "Charge released", tone: "bg-violet-500" },
  [RECEIPT_TIMEOUT_EVENT]: { label: "No receipt from the carrier in time; counted as sent", tone: "bg-slate-500" },
};

function messageStateOf({ sms, events }: MessageDetail): MessageState {
  return {
    status: sms.status,
    deliveredAt: sms.delivered_at,
    createdAt: sms.created_at,
    sendAt: sms.send_at,
    receiptTimedOut: events.some((event) => event.kind === RECEIPT_TIMEOUT_EVENT),
  };
}

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-[9rem_minmax(0,1fr)] gap-3 py-2 text-sm sm:grid-cols-[11rem_minmax(0,1fr)]">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function Mono({ children }: { children: React.ReactNode }) {
  return <code className="font-mono text-xs">{children}</code>;
}

const partColumns: Column<MessageDetail["parts"][number]>[] = [
  { key: "part", header: "Part", numeric: true, cell: (part) => part.partNumber },
  { key: "carrierId", header: "Carrier message id", cell: (part) => <Mono>{part.carrierMessageId}</Mono> },
  {
    key: "status",
    header: "Status",
    cell: (part) => {
      const { label, tone } = partStatusLabel(part.status);
      return <Badge tone={tone}>{label}</Badge>;
    },
  },
  {
    key: "receipt",
    header: "Receipt",
    cell: (part) =>
      part.receiptStat ? (
        <>
          <CarrierReason text={`${part.receiptStat}${part.receiptError ? ` err ${part.receiptError}` : ""}`} /> ·{" "}
          <Time value={part.receiptAt} seconds />
        </>
      ) : (
        <span className="text-slate-400">—</span>
      ),
  },
];

export function MessageDetailView({
  initial,
  canRedeliver,
  canCancel,
  platformView,
}: {
  initial: MessageDetail;
  canRedeliver: boolean;
  /** The user may cancel the account's sends (the message itself may no longer be cancellable). */
  canCancel: boolean;
  platformView: boolean;
}) {
  const { data = initial } = useQuery({
    queryKey: ["message", initial.sms.id],
    queryFn: () => fetchJson<MessageDetail>(`/api/dashboard/messages/${initial.sms.id}`),
    initialData: initial,
    refetchInterval: (query) => {
      const current = query.state.data;
      if (!current) return false;
      return current.webhooks.some((delivery) => delivery.status === "pending") ? POLL_MS : nextPollIn([messageStateOf(current)], POLL_MS);
    },
  });
  const { sms } = data;
  const released = data.ledger.find((entry) => entry.kind === "release");
  const awaiting = isAwaitingUpdate(messageStateOf(data));
  return (
    <div className="space-y-6">
      <div>
        <Link href={platformView ? "/dashboard/support" : "/dashboard/messages"} className="text-sm text-slate-500 hover:text-slate-900">
          ← {platformView ? "Message lookup" : "Messages"}
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{sms.to}</h1>
          <span data-testid="message-status">
            <MessageStatus status={sms.status} deliveredAt={sms.delivered_at} sendAt={sms.send_at} />
          </span>
          {data.test && <Badge tone="violet">Test</Badge>}
          {awaiting && <span className="text-xs text-slate-400">Updating live…</span>}
          {canCancel && data.cancellable && <CancelButton id={sms.id} test={data.test} />}
        </div>
        <p className="mt-1 font-mono text-xs break-all text-slate-500" data-testid="message-id">
          {sms.id}
        </p>
      </div>

      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="space-y-6">
          <Card>
            <CardHeader title="Message" />
            <CardBody>
              {sms.message === null ? (
                <p className="text-sm text-slate-500 italic">The body is the customer&apos;s content and is not shown to platform staff.</p>
              ) : (
                <p
                  className="rounded-lg bg-slate-50 p-4 text-sm wrap-anywhere whitespace-pre-wrap text-slate-900"
                  data-testid="message-body"
                >
                  {sms.message}
                </p>
              )}
              <dl className="mt-4 divide-y divide-slate-100">
                {platformView && (
                  <Row label="Account" testId="message-account">
                    {data.account.name} <span className="font-mono text-xs text-slate-400">{data.account.id}</span>
                  </Row>
                )}
                <Row label="To">{sms.to}</Row>
                <Row label="Sender id">{sms.sender_id}</Row>
                <Row label="Carrier">{carrierName(sms.operator)}</Row>
                <Row label="Operator response">
                  <CarrierReason text={sms.operator_response} testId="message-operator-response" />
                </Row>
                <Row label="Encoding">
                  {encodingName(data.encoding)} · {data.segments} segment{data.segments === 1 ? "" : "s"}
                </Row>
                <Row label="Charge" testId="message-charge">
                  {data.test ? (
                    "Not charged (test message)"
                  ) : (
                    <>
                      <Money
                        value={sms.charge}
                        currency={sms.charge_currency}
                        fourDecimals
                        className={released ? "line-through" : undefined}
                      />
                      {released && " released back to the balance"}
                    </>
                  )}
                </Row>
                <Row label="Priority" testId="message-priority">
                  {sms.priority === "high" ? "High: ahead of queued messages" : "Normal"}
                </Row>
                <Row label="Received">
                  <Time value={sms.received_at} seconds />
                </Row>
                <Row label="Created">
                  <Time value={sms.created_at} seconds />
                </Row>
                {sms.send_at && (
                  <Row label="Scheduled for" testId="message-send-at">
                    <Time value={sms.send_at} seconds />
                  </Row>
                )}
                {sms.validity_period !== null && (
                  <Row label="Give up after" testId="message-validity">
                    {durationWords(sms.validity_period)}
                    {data.expiresAt && (
                      <>
                        {" "}
                        (at <Time value={data.expiresAt} seconds />)
                      </>
                    )}
                  </Row>
                )}
                <Row label="Dispatched">
                  <Time value={data.dispatchedAt} seconds />
                </Row>
                <Row label="Delivered" testId="message-delivered-at">
                  <Time value={sms.delivered_at} seconds fallback="Not yet" />
                </Row>
                <Row label="Source">{data.source}</Row>
                {data.bulkSendId && (
                  <Row label="Bulk send">
                    <span className="flex flex-wrap items-center gap-x-3">
                      {platformView ? (
                        <code className="font-mono text-xs break-all">{data.bulkSendId}</code>
                      ) : (
                        <Link
                          className="font-mono text-xs break-all text-brand-700 hover:underline"
                          href={`/dashboard/messages?bulk=${data.bulkSendId}`}
                        >
                          {data.bulkSendId}
                        </Link>
                      )}
                      <Link
                        className="text-brand-700 hover:underline"
                        href={`/dashboard/bulk/${data.bulkSendId}`}
                        data-testid="message-bulk-report"
                      >
                        Report
                      </Link>
                    </span>
                  </Row>
                )}
                {data.lastError && (
                  <Row label="Last error">
                    <CarrierReason text={data.lastError} testId="message-last-error" className="text-red-700" />
                  </Row>
                )}
              </dl>
            </CardBody>
          </Card>

          {data.parts.length > 0 && (
            <Card>
              <CardHeader title="Segments" description="Each part as submitted to the carrier, with its receipt." />
              <DataTable columns={partColumns} rows={data.parts} rowKey={(part) => String(part.partNumber)} empty={null} />
            </Card>
          )}

          <Card>
            <CardHeader
              title="Webhooks"
              description={
                platformView
                  ? "Deliveries of this message's events (URLs hidden)."
                  : "Deliveries of this message's events to its webhook URL, with every attempt."
              }
            />
            {data.webhooks.length === 0 ? (
              <EmptyState
                icon="webhook"
                title="No webhook deliveries"
                description={
                  platformView ? (
                    "The send that made this message set no webhook URL. Deliveries to the account's webhook endpoints are not listed here."
                  ) : (
                    <>
                      The send that made this message set no webhook URL. Deliveries to the account&apos;s endpoints are on the{" "}
                      <Link href="/dashboard/webhooks" className="font-medium text-brand-700 hover:underline">
                        Webhooks
                      </Link>{" "}
                      page.
                    </>
                  )
                }
              />
            ) : (
              <ul className="divide-y divide-slate-100">
                {data.webhooks.map((delivery) => (
                  <li key={delivery.id} className="px-5 py-4" data-testid="webhook-delivery">
                    <div className="flex flex-wrap items-center justify-between gap-3">
                      <div className="min-w-0 flex-1">
                        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                          <Mono>{delivery.eventType}</Mono>
                          <WebhookDeliveryStatus status={delivery.status} />
                        </p>
                        {delivery.url && <p className="mt-0.5 text-xs break-all text-slate-500">{delivery.url}</p>}
                      </div>
                      {canRedeliver && !platformView && <RedeliverButton deliveryId={delivery.id} />}
                    </div>
                    {delivery.attemptLog.length > 0 && (
                      <ol className="mt-3 space-y-1 text-xs text-slate-600">
                        {delivery.attemptLog.map((attempt) => (
                          <li key={attempt.id} className="flex flex-wrap gap-x-3">
                            <Time value={attempt.attemptedAt} seconds />
                            <span
                              className={cn(
                                "font-mono",
                                attempt.statusCode && attempt.statusCode < 300 ? "text-emerald-700" : "text-red-700",
                              )}
                            >
                              {attempt.statusCode ?? "no answer"}
                            </span>
                            <span>{attempt.latencyMs} ms</span>
                            {attempt.error && <span className="text-red-700">{attempt.error}</span>}
                          </li>
                        ))}
                      </ol>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>

        <div className="space-y-6">
          <Card>
            <CardHeader title="Timeline" />
            <CardBody>
              {data.events.length === 0 ? (
                <p className="text-sm text-slate-500">No events yet.</p>
              ) : (
                <ol className="relative space-y-4 border-l border-slate-200 pl-5" data-testid="message-timeline">
                  {data.events.map((event) => {
                    const label = eventLabels[event.kind] ?? { label: event.kind, tone: "bg-slate-400" };
                    return (
                      <li key={event.id} className="relative" data-testid="timeline-event" data-kind={event.kind}>
                        <span
                          aria-hidden
                          className={cn("absolute top-1.5 -left-[1.6rem] h-2.5 w-2.5 rounded-full ring-4 ring-white", label.tone)}
                        />
                        <p className="text-sm font-medium text-slate-900">{label.label}</p>
                        {event.kind === "refunded" && released && (
                          <p className="text-xs text-slate-700" data-testid="timeline-released">
                            <Money value={released.amount} currency={sms.charge_currency} fourDecimals /> back to the balance
                          </p>
                        )}
                        {event.detail && (
                          <p className="text-xs wrap-anywhere text-slate-500">
                            {event.kind === "failed" || event.kind === "retry" ? (
                              <CarrierReason text={event.detail} />
                            ) : (
                              event.detail.replace(/\b(econet|netone|telecel)\b/g, (operator) => carrierName(operator))
                            )}
                          </p>
                        )}
                        <p className="text-xs text-slate-400">
                          <Time value={event.createdAt} seconds />
                        </p>
                      </li>
                    );
                  })}
                </ol>
              )}
            </CardBody>
          </Card>

          <Card>
            <CardHeader title="Charge and ledger" />
            {data.ledger.length === 0 ? (
              <CardBody>
                <p className="text-sm text-slate-500">{data.test ? "Test messages are never charged." : "No ledger entries."}</p>
              </CardBody>
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="message-ledger">
                {data.ledger.map((entry) => (
                  <li key={entry.id} className="flex items-center justify-between gap-3 px-5 py-3 text-sm">
                    <div>
                      <p className="font-medium text-slate-900">{ledgerKindLabel(entry.kind).label}</p>
                      <p className="text-xs text-slate-400">
                        <Time value={entry.createdAt} seconds />
                      </p>
                    </div>
                    <Money value={entry.amount} currency={sms.charge_currency} signed fourDecimals />
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
      </div>
    </div>
  );
}
