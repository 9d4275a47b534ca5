"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, useTransition } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ClampedText } from "@/components/ui/clamped-text";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Textarea, submitHandler } from "@/components/ui/field";
import { DataTable, type Column } from "@/components/ui/data-table";
import { notifyOutcome, useToast } from "@/components/ui/toaster";
import { RelativeTime, Time } from "@/components/time";
import { fetchJson } from "@/lib/dashboard/fetch-json";
import type { CarrierBindRow, CarrierRow } from "@/lib/dashboard/carrier-rows";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { carrierName } from "@/lib/messages/vocabulary";
import { pauseCarrierAction, resumeCarrierAction } from "./actions";

/** The dispatchers report every few seconds; the page reads a little more often than that. */
const POLL_MS = 3_000;

const stateTone: Record<CarrierBindRow["state"], BadgeTone> = {
  bound: "green",
  binding: "blue",
  "backing-off": "amber",
  paused: "violet",
  down: "red",
  stopped: "gray",
};

const stateLabel: Record<CarrierBindRow["state"], string> = {
  bound: "Bound",
  binding: "Binding",
  "backing-off": "Backing off",
  paused: "Paused",
  down: "Down",
  stopped: "Stopped",
};

/** How long the message first in line had waited at the time of the read, e.g. "42 s", "7 min", "3 h". */
function formatAge(from: string, at: string): string {
  const seconds = Math.max(0, Math.round((new Date(at).getTime() - new Date(from).getTime()) / 1000));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/** Over the last minute; two decimals below 1/s so that a trickle does not read as nothing. */
function ratePerSecond(sentLastMinute: number): string {
  const rate = sentLastMinute / 60;
  return rate.toFixed(rate < 1 ? 2 : rate < 10 ? 1 : 0);
}

function formatLatency(ms: number | null): string {
  if (ms === null) return "—";
  return ms < 1000 ? `≤ ${ms} ms` : ms < 60_000 ? `≤ ${ms / 1000} s` : `≤ ${ms / 60_000} min`;
}

/** Messages sent per minute over the last hour, as a line scaled to its own peak. */
function Sparkline({ values, label }: { values: number[]; label: string }) {
  const width = 120;
  const height = 24;
  const peak = Math.max(1, ...values);
  const points = values.map((value, index) => `${(index / (values.length - 1)) * width},${height - 1 - (value / peak) * (height - 2)}`);
  return (
    <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={label} className="text-brand-600">
      <polyline points={points.join(" ")} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
    </svg>
  );
}

/** The carrier's state: its pause, else its binds' states (no bind reported: no dispatcher runs). */
function CarrierState({ carrier }: { carrier: CarrierRow }) {
  if (carrier.binds.length === 0)
    return carrier.paused ? <Badge tone="violet">Paused</Badge> : <span className="text-slate-400">No dispatcher reporting</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {carrier.binds.map((bind) => (
        <Badge key={`${bind.owner}|${bind.bind}`} tone={stateTone[bind.state]}>
          {stateLabel[bind.state]}
        </Badge>
      ))}
    </span>
  );
}

const carrierColumns: Column<CarrierRow>[] = [
  {
    key: "carrier",
    header: "Carrier",
    // Wide enough on a phone that a reason shown whole reads in words, not a few letters a line.
    className: "min-w-28",
    cell: (carrier) => (
      <>
        <p className="font-medium text-slate-900">{carrierName(carrier.operator)}</p>
        {carrier.paused && (
          // Two lines: a reason of up to 500 characters would stretch the row; a button shows the whole of it.
          <ClampedText
            text={carrier.paused.reason}
            className="text-xs text-slate-500"
            showLabel="Show the whole reason"
            testId="carrier-pause-reason"
          >
            Paused <RelativeTime value={carrier.paused.pausedAt} />: {carrier.paused.reason}
          </ClampedText>
        )}
      </>
    ),
  },
  {
    key: "state",
    header: "State",
    nowrap: true,
    cell: (carrier) => (
      <span data-testid="carrier-state" data-state={carrier.paused ? "paused" : (carrier.binds[0]?.state ?? "none")}>
        <CarrierState carrier={carrier} />
      </span>
    ),
  },
  {
    key: "window",
    header: "Window",
    numeric: true,
    cell: (carrier) => (carrier.windowSize ? `${carrier.windowUsed} / ${carrier.windowSize}` : "—"),
  },
  { key: "cap", header: "Cap/s", numeric: true, cell: (carrier) => carrier.tps || "—" },
  {
    key: "sent",
    header: "Sent/s",
    numeric: true,
    cell: (carrier) => (
      <span data-testid="carrier-sent" title={`${carrier.sentLastMinute} in the last minute`}>
        {ratePerSecond(carrier.sentLastMinute)}
      </span>
    ),
  },
  {
    key: "hour",
    header: "Last hour",
    nowrap: true,
    cell: (carrier) => (
      <div data-testid="carrier-hour">
        <Sparkline values={carrier.sentPerMinute} label={`${carrier.lastHour.sent} sent in the last hour, per minute`} />
        <p className="text-xs text-slate-500">
          {carrier.lastHour.sent} sent, {carrier.lastHour.delivered} delivered
        </p>
        <p className="text-xs text-slate-500">
          {carrier.lastHour.throttled} throttled, {carrier.lastHour.errors} refused
        </p>
        <p className="text-xs text-slate-500" title="From acceptance to the carrier's answer, p50 / p95">
          answer {formatLatency(carrier.lastHour.submitP50Ms)} / {formatLatency(carrier.lastHour.submitP95Ms)}
        </p>
        <p className="text-xs text-slate-500" title="From acceptance to the DELIVRD receipt, p50 / p95">
          receipt {formatLatency(carrier.lastHour.receiptP50Ms)} / {formatLatency(carrier.lastHour.receiptP95Ms)}
        </p>
        <p
          className="text-xs text-slate-500"
          title="Messages the carrier accepted in the last hour whose receipt has not come yet, summed over the dispatchers; a restarted dispatcher's share is forgotten"
        >
          {/* The column is the last hour's: one short line keeps the table within a 1280 px laptop. */}
          <span data-testid="carrier-receipts-awaited">{carrier.lastHour.receiptsAwaited}</span> receipts awaited
        </p>
      </div>
    ),
  },
  {
    // The depth and the age of the message first in line share a column, so that the table fits a
    // 1280 px laptop without the age sliding under the pinned actions.
    key: "queue",
    header: "Queued",
    numeric: true,
    nowrap: true,
    cell: (carrier) => (
      <>
        <span data-testid="carrier-queue">{carrier.queueDepth}</span>
        <p className="text-xs text-slate-500" data-testid="carrier-first-in-line">
          {carrier.oldestQueuedAt ? `first waited ${formatAge(carrier.oldestQueuedAt, carrier.readAt)}` : "none waiting"}
        </p>
        {(["high", "normal"] as const).map((priority) => (
          <p key={priority} className="text-xs text-slate-500">
            {priority} <span data-testid={`carrier-queue-${priority}`}>{carrier.queueByPriority[priority].depth}</span>
            {carrier.queueByPriority[priority].oldestQueuedAt &&
              ` · ${formatAge(carrier.queueByPriority[priority].oldestQueuedAt, carrier.readAt)}`}
          </p>
        ))}
      </>
    ),
  },
];

const roleLabel: Record<CarrierBindRow["role"], string> = { primary: "Primary", standby: "Standby", shared: "Shared" };

type BindRow = CarrierBindRow & { operator: CarrierRow["operator"] };

const bindColumns: Column<BindRow>[] = [
  { key: "carrier", header: "Carrier", className: "font-medium text-slate-900", cell: (bind) => carrierName(bind.operator) },
  {
    key: "state",
    header: "State",
    nowrap: true,
    cell: (bind) => (
      <>
        <Badge tone={stateTone[bind.state]}>{stateLabel[bind.state]}</Badge>
        {bind.nextTryAt && (
          <p className="mt-0.5 text-xs text-slate-500">
            next try <Time value={bind.nextTryAt} seconds />
          </p>
        )}
      </>
    ),
  },
  { key: "since", header: "Since", nowrap: true, cell: (bind) => <Time value={bind.since} seconds /> },
  { key: "host", header: "Host", cell: (bind) => <span className="font-mono text-xs">{bind.bind || bind.host}</span> },
  {
    key: "role",
    header: "Role",
    nowrap: true,
    cell: (bind) => (
      <span data-testid="bind-role" data-role={bind.role} data-active={bind.active ? "true" : "false"}>
        {roleLabel[bind.role]}
        <span className="block text-xs text-slate-500">{bind.active ? "in use" : "standing by"}</span>
      </span>
    ),
  },
  { key: "window", header: "Window", numeric: true, cell: (bind) => `${bind.windowUsed} / ${bind.windowSize}` },
  { key: "cap", header: "Cap/s", numeric: true, cell: (bind) => bind.tps },
  { key: "sent", header: "Sent/s", numeric: true, cell: (bind) => ratePerSecond(bind.sentLastMinute) },
  { key: "worker", header: "Worker", cell: (bind) => <span className="font-mono text-xs text-slate-500">{bind.owner}</span> },
];

export function CarriersView({ initial, canManage }: { initial: CarrierRow[]; canManage: boolean }) {
  const queryClient = useQueryClient();
  const notify = useToast();
  const [busy, startTransition] = useTransition();
  const [pausing, setPausing] = useState<CarrierRow | null>(null);
  const [resuming, setResuming] = useState<CarrierRow | null>(null);
  const errors = useFieldErrors();
  const { data = initial } = useQuery({
    queryKey: ["carriers"],
    queryFn: () => fetchJson<CarrierRow[]>("/api/dashboard/carriers"),
    initialData: initial,
    refetchInterval: POLL_MS,
  });
  const binds: BindRow[] = data.flatMap((carrier) => carrier.binds.map((bind) => ({ ...bind, operator: carrier.operator })));

  function pause(carrier: CarrierRow, form: FormData) {
    startTransition(async () => {
      const result = await pauseCarrierAction({ operator: carrier.operator, reason: String(form.get("reason") ?? "") });
      if (!errors.accepted(result)) return;
      setPausing(null);
      const name = carrierName(carrier.operator);
      notify(
        "success",
        result.data.changed
          ? `${name} paused: its messages wait in the queue`
          : `${name} was already paused by ${result.data.pausedBy}: “${result.data.reason}”. That pause stands; your reason was not recorded`,
      );
      await queryClient.invalidateQueries({ queryKey: ["carriers"] });
    });
  }

  function resume(carrier: CarrierRow) {
    startTransition(async () => {
      const result = await resumeCarrierAction({ operator: carrier.operator });
      const name = carrierName(carrier.operator);
      notifyOutcome(
        notify,
        result,
        result.ok && !result.data.changed ? `${name} was not paused (resumed meanwhile): nothing changed` : `${name} resumed`,
      );
      setResuming(null);
      await queryClient.invalidateQueries({ queryKey: ["carriers"] });
    });
  }

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader title="Carriers" description="Live traffic; updates by itself every few seconds." />
        <DataTable
          columns={carrierColumns}
          rows={data}
          rowKey={(carrier) => carrier.operator}
          rowAttributes={(carrier) => ({ "data-testid": "carrier-row", "data-carrier": carrier.operator })}
          actions={
            canManage
              ? (carrier) =>
                  carrier.paused ? (
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() => setResuming(carrier)}
                      aria-label={`Resume ${carrierName(carrier.operator)}`}
                    >
                      Resume
                    </Button>
                  ) : (
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() => {
                        errors.setFields(undefined);
                        setPausing(carrier);
                      }}
                      aria-label={`Pause ${carrierName(carrier.operator)}`}
                    >
                      Pause
                    </Button>
                  )
              : undefined
          }
          empty={<EmptyState icon="signal" title="No carriers" description="Carriers are configured with SMPP_<CARRIER> URLs." />}
        />
      </Card>

      <Card>
        <CardHeader
          title="Binds"
          description="One row per dispatcher's bind to a carrier, as each reported it: a carrier's binds are used together (shared) or as a primary and its standby."
        />
        <DataTable
          columns={bindColumns}
          rows={binds}
          rowKey={(bind) => `${bind.owner}|${bind.operator}|${bind.bind}`}
          rowAttributes={(bind) => ({
            "data-testid": "bind-row",
            "data-carrier": bind.operator,
            "data-state": bind.state,
            "data-role": bind.role,
          })}
          empty={
            <EmptyState
              icon="signal"
              title="No dispatcher is reporting"
              description="Start the server with its dispatcher, or npm run worker; binds appear here within seconds."
            />
          }
        />
      </Card>

      <Dialog
        open={pausing !== null}
        onRequestClose={() => setPausing(null)}
        title={`Pause ${pausing ? carrierName(pausing.operator) : ""}`}
        description="No new messages go to this carrier until you resume it; they wait in the queue, not failed and not charged again. Messages already sent finish. Every worker follows within seconds."
        testId="pause-dialog"
      >
        {pausing && (
          <form onSubmit={submitHandler((form) => pause(pausing, form))} {...errors.formProps} className="space-y-4">
            <Field
              id="pause-reason"
              label="Reason"
              hint="3 to 500 characters, kept with the pause and in the audit log."
              error={errors.errorFor("reason")}
            >
              <Textarea
                id="pause-reason"
                name="reason"
                required
                rows={3}
                maxLength={500}
                data-autofocus
                invalid={!!errors.errorFor("reason")}
              />
            </Field>
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => setPausing(null)}>
                Cancel
              </Button>
              <Button type="submit" variant="danger" disabled={busy}>
                {busy ? "Pausing…" : "Pause carrier"}
              </Button>
            </div>
          </form>
        )}
      </Dialog>

      <ConfirmDialog
        open={resuming !== null}
        onClose={() => setResuming(null)}
        title={`Resume ${resuming ? carrierName(resuming.operator) : ""}`}
        description={
          resuming
            ? `Its ${resuming.queueDepth} queued message(s) start going out at once, at the carrier's cap.${resuming.paused ? ` Paused for: ${resuming.paused.reason}` : ""}`
            : undefined
        }
        testId="resume-dialog"
        confirmLabel={busy ? "Resuming…" : "Resume carrier"}
        onConfirm={() => resuming && resume(resuming)}
        busy={busy}
        variant="primary"
        focus="confirm"
      />
    </div>
  );
}
