"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input, Select } from "@/components/ui/field";
import { DataTable, type Column } from "@/components/ui/data-table";
import { ButtonLink, buttonClass } from "@/components/ui/button";
import { Badge } from "@/components/ui/badge";
import { FilterForm, withParams } from "@/components/ui/filter-form";
import { MessageStatus } from "@/components/status-badge";
import { operators } from "@/lib/carriers/operators";
import { carrierName, FAILURE_REASON_FILTERS, MESSAGE_STATUS_FILTERS } from "@/lib/messages/vocabulary";
import { Money } from "@/components/money";
import { Time } from "@/components/time";
import { fetchJson } from "@/lib/dashboard/fetch-json";
import type { ViewMode } from "@/lib/dashboard/view-mode";
import { nextPollIn } from "@/lib/dashboard/message-state";
import type { MessagePage } from "@/lib/dashboard/message-schemas";

type MessageRow = MessagePage["rows"][number];
import type { MessageFilters } from "@/lib/dashboard/list-messages";
import { CancelButton } from "./cancel-button";

const POLL_MS = 2_000;

/** What a message cost: nothing for a test message, and a failed message's charge struck out (it was released). */
function MessageCharge({ row }: { row: MessageRow }) {
  if (row.test) return <span className="text-slate-400">Not charged</span>;
  if (row.status === "failed") {
    return (
      <span className="text-slate-400" data-testid="charge-released">
        <s>
          <Money value={row.charge} currency={row.currency} />
        </s>{" "}
        released
      </span>
    );
  }
  return <Money value={row.charge} currency={row.currency} />;
}

const columns: Column<MessageRow>[] = [
  {
    key: "recipient",
    header: "Recipient",
    nowrap: true,
    cell: (row) => (
      <>
        <Link
          href={`/dashboard/messages/${row.id}`}
          data-testid="message-recipient"
          className="font-medium text-slate-900 hover:text-brand-700 hover:underline"
        >
          {row.to}
        </Link>
        <p className="font-mono text-[11px] text-slate-400" title={row.id} data-testid="short-id">
          …{row.id.slice(-8)}
        </p>
      </>
    ),
  },
  {
    key: "status",
    header: "Status",
    nowrap: true,
    cell: (row) => (
      <div className="flex items-center gap-1.5">
        <MessageStatus status={row.status} deliveredAt={row.deliveredAt} sendAt={row.sendAt} />
        {row.test && <Badge tone="violet">Test</Badge>}
      </div>
    ),
  },
  {
    key: "message",
    header: "Message",
    className: "max-w-xs",
    cell: (row) => (
      <>
        <p className="truncate text-slate-600">{row.bodyPreview}</p>
        <p className="text-xs text-slate-400">
          {row.senderId} · {row.segments} segment{row.segments === 1 ? "" : "s"}
        </p>
      </>
    ),
  },
  { key: "carrier", header: "Carrier", cell: (row) => carrierName(row.operator) },
  { key: "charge", header: "Charge", numeric: true, cell: (row) => <MessageCharge row={row} /> },
  { key: "created", header: "Created", nowrap: true, cell: (row) => <Time value={row.createdAt} /> },
];

/** Only while no carrier has it, nor may have it: scheduled or still queued. */
function rowActions(row: MessageRow) {
  return row.cancellable ? <CancelButton id={row.id} test={row.test} /> : null;
}

export function MessagesView({
  filters,
  params,
  bodySearch,
  problems,
  initialPage,
  mode,
}: {
  filters: MessageFilters;
  params: Record<string, string | undefined>;
  /** The user's role reads bodies, so may search by what a message says. */
  bodySearch: boolean;
  problems: string[];
  initialPage: MessagePage;
  /** The view the page was rendered for: a switch renders the page again, under another query key. */
  mode: ViewMode;
}) {
  const query = new URLSearchParams(Object.entries(filters).map(([key, value]) => [key, String(value)])).toString();
  // The applied filters, every page: the export holds exactly the rows this view lists.
  const exportQuery = new URLSearchParams(
    Object.entries(filters)
      .filter(([key]) => key !== "cursor")
      .map(([key, value]) => [key, String(value)]),
  ).toString();
  const { data = initialPage } = useQuery({
    queryKey: ["messages", mode, query],
    queryFn: () => fetchJson<MessagePage>(`/api/dashboard/messages?${query}`),
    initialData: initialPage,
    refetchInterval: (current) => nextPollIn(current.state.data?.rows ?? [], POLL_MS),
  });
  const filtered = Object.keys(params).some((key) => key !== "cursor" && params[key]);
  return (
    <Card>
      <FilterForm resetHref="/dashboard/messages" problems={problems}>
        <Field id="filter-id" label="Message id">
          <Input
            id="filter-id"
            name="id"
            defaultValue={params.id}
            placeholder="id or short id, e.g. …9e20c4f1"
            className="font-mono text-xs"
          />
        </Field>
        <Field id="filter-recipient" label="Recipient">
          <Input id="filter-recipient" name="recipient" defaultValue={params.recipient} placeholder="+26377…" />
        </Field>
        <Field id="filter-status" label="Status">
          <Select id="filter-status" name="status" defaultValue={filters.status ?? ""}>
            <option value="">Any</option>
            {MESSAGE_STATUS_FILTERS.map((status) => (
              <option key={status.value} value={status.value}>
                {status.label}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="filter-delivered" label="Delivered">
          <Select id="filter-delivered" name="delivered" defaultValue={filters.delivered ?? ""}>
            <option value="">Any</option>
            <option value="yes">Yes</option>
            <option value="no">Not yet</option>
          </Select>
        </Field>
        <Field id="filter-operator" label="Carrier">
          <Select id="filter-operator" name="operator" defaultValue={filters.operator ?? ""}>
            <option value="">Any</option>
            {operators.map((operator) => (
              <option key={operator} value={operator}>
                {carrierName(operator)}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="filter-since" label="From">
          <Input id="filter-since" name="since" type="date" defaultValue={params.since} />
        </Field>
        <Field id="filter-until" label="To">
          <Input id="filter-until" name="until" type="date" defaultValue={params.until} />
        </Field>
        <Field id="filter-sender" label="Sender id">
          <Input id="filter-sender" name="sender" defaultValue={filters.sender} placeholder="ACME" />
        </Field>
        <Field id="filter-reason" label="Error reason">
          <Select id="filter-reason" name="reason" defaultValue={filters.reason ?? ""}>
            <option value="">Any</option>
            {FAILURE_REASON_FILTERS.map((reason) => (
              <option key={reason.value} value={reason.value}>
                {reason.label} ({reason.value})
              </option>
            ))}
          </Select>
        </Field>
        <Field id="filter-bulk" label="Bulk send">
          <Input id="filter-bulk" name="bulk" defaultValue={params.bulk} placeholder="bulk send id" className="font-mono text-xs" />
        </Field>
        {bodySearch && (
          <Field id="filter-text" label="Message text">
            <Input id="filter-text" name="text" defaultValue={filters.text} placeholder="words in the message" />
          </Field>
        )}
      </FilterForm>
      <div className="flex flex-wrap items-center justify-end gap-2 border-b border-slate-100 px-5 py-2">
        <a
          href={`/api/dashboard/messages/export${exportQuery ? `?${exportQuery}` : ""}`}
          download
          className={buttonClass("secondary", "sm")}
          data-testid="export-csv"
        >
          Export CSV
        </a>
      </div>
      {filters.bulk && (
        <div className="flex items-center gap-2 border-b border-slate-100 bg-slate-50 px-5 py-2 text-sm text-slate-600">
          Bulk send <code className="font-mono text-xs">{filters.bulk}</code>
          <Link href={`/dashboard/bulk/${filters.bulk}`} className="text-brand-700 hover:underline" data-testid="bulk-report-link">
            Report
          </Link>
          <Link
            href={withParams("/dashboard/messages", params, { bulk: undefined, cursor: undefined })}
            className="text-brand-700 hover:underline"
          >
            Show all
          </Link>
        </div>
      )}
      <DataTable
        columns={columns}
        rows={data.rows}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ "data-testid": "message-row", "data-message-id": row.id })}
        actions={rowActions}
        empty={
          filtered ? (
            <EmptyState
              icon="search"
              title="No messages match these filters"
              description="Widen the date range or clear a filter."
              action={
                <ButtonLink href="/dashboard/messages" variant="secondary">
                  Clear filters
                </ButtonLink>
              }
            />
          ) : (
            <EmptyState
              icon="inbox"
              title="No messages yet"
              description="Send your first message from Compose, or call POST /api/v1/sms with an API key."
              action={<ButtonLink href="/dashboard/compose">Compose a message</ButtonLink>}
            />
          )
        }
        pagination={{
          firstHref: filters.cursor ? withParams("/dashboard/messages", params, { cursor: undefined }) : undefined,
          nextHref: data.nextCursor ? withParams("/dashboard/messages", params, { cursor: data.nextCursor }) : undefined,
        }}
      />
    </Card>
  );
}
