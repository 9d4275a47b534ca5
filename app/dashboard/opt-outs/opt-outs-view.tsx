"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClass } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field, Input, submitHandler } from "@/components/ui/field";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { notifyOutcome, useToast } from "@/components/ui/toaster";
import { Time } from "@/components/time";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { extractCandidates } from "@/lib/dashboard/check-recipient-list";
import type { OptOutChangeRow, OptOutRow } from "@/lib/dashboard/list-opt-outs";
import { OPT_OUT_IMPORT_CHUNK, OPT_OUT_IMPORT_VALUE_MAX } from "@/lib/opt-outs/limits";
import { addOptOutAction, importOptOutsAction, removeOptOutAction } from "./actions";

type ReportRow = { line: number; value: string; outcome: "added" | "already" | "invalid"; note: string };
/** Where an import ended early, and why: lines from there on were not imported. */
type ImportStop = { line: number; error: string };

const outcomeTone = { added: "green", already: "gray", invalid: "red" } as const;
const outcomeLabel = { added: "Added", already: "Already listed", invalid: "Not a number" } as const;

const columns: Column<OptOutRow>[] = [
  { key: "number", header: "Number", className: "font-medium font-mono text-slate-900", cell: (row) => row.number },
  { key: "actor", header: "Added by", className: "text-slate-600 break-words", cell: (row) => row.actor },
  { key: "added", header: "Added", nowrap: true, cell: (row) => <Time value={row.createdAt} /> },
];

const changeColumns: Column<OptOutChangeRow>[] = [
  { key: "number", header: "Number", className: "font-mono", cell: (row) => row.number },
  {
    key: "action",
    header: "Change",
    nowrap: true,
    cell: (row) => <Badge tone={row.action === "added" ? "amber" : "blue"}>{row.action === "added" ? "Opted out" : "Removed"}</Badge>,
  },
  { key: "actor", header: "By", className: "text-slate-600 break-words", cell: (row) => row.actor },
  { key: "when", header: "When", nowrap: true, cell: (row) => <Time value={row.createdAt} /> },
];

export function OptOutsView({
  rows,
  nextCursor,
  firstPage,
  changes,
}: {
  rows: OptOutRow[];
  nextCursor: string | null;
  firstPage: boolean;
  changes: OptOutChangeRow[];
}) {
  const router = useRouter();
  const notify = useToast();
  const [pending, startTransition] = useTransition();
  const errors = useFieldErrors();
  const [number, setNumber] = useState("");
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [report, setReport] = useState<ReportRow[]>([]);
  const [stopped, setStopped] = useState<ImportStop | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  function add() {
    startTransition(async () => {
      const result = await addOptOutAction({ number });
      if (!errors.accepted(result)) return;
      notify("success", result.data.created ? `${result.data.number} opted out` : `${result.data.number} was already on the list`);
      setNumber("");
      router.refresh();
    });
  }

  function remove(row: OptOutRow) {
    startTransition(async () => {
      const result = await removeOptOutAction({ number: row.number });
      notifyOutcome(notify, result, `${row.number} removed; sends to it go through again`);
      router.refresh();
    });
  }

  async function importFile(file: File | undefined) {
    if (!file) return;
    const all = extractCandidates(await file.text(), { csv: true });
    // A value longer than the server reads is no phone number: reported here, not sent.
    const candidates = all.filter((candidate) => candidate.value.length <= OPT_OUT_IMPORT_VALUE_MAX);
    const rowsOut: ReportRow[] = all
      .filter((candidate) => candidate.value.length > OPT_OUT_IMPORT_VALUE_MAX)
      .map((candidate) => ({
        line: candidate.line,
        value: candidate.value,
        outcome: "invalid" as const,
        note: `is not a phone number: longer than ${OPT_OUT_IMPORT_VALUE_MAX} characters`,
      }));
    let stop: ImportStop | null = null;
    setReport([]);
    setStopped(null);
    setProgress({ done: 0, total: candidates.length });
    try {
      for (let start = 0; start < candidates.length; start += OPT_OUT_IMPORT_CHUNK) {
        const chunk = candidates.slice(start, start + OPT_OUT_IMPORT_CHUNK);
        // A chunk that is refused, or never answered, ends the import there: the chunks before it are saved.
        const result = await importOptOutsAction({ numbers: chunk.map((candidate) => candidate.value) }).catch(() => ({
          ok: false as const,
          error: "the request to the server failed",
        }));
        if (!result.ok) {
          stop = { line: chunk[0].line, error: result.error };
          break;
        }
        result.data.forEach((row, index) =>
          rowsOut.push({
            line: chunk[index].line,
            value: row.input,
            outcome: row.outcome,
            note: row.outcome === "invalid" ? (row.reason ?? "") : (row.number ?? ""),
          }),
        );
        setProgress({ done: Math.min(start + chunk.length, candidates.length), total: candidates.length });
      }
    } finally {
      setProgress(null);
      setReport(rowsOut.sort((first, second) => first.line - second.line));
      setStopped(stop);
      if (fileInput.current) fileInput.current.value = "";
      router.refresh();
    }
    const added = rowsOut.filter((row) => row.outcome === "added").length;
    if (stop) {
      notify("error", `Import stopped at line ${stop.line}: ${stop.error}. ${added} of ${all.length} numbers were added before it`);
      return;
    }
    notify("success", `${added} of ${all.length} numbers added`);
  }

  const percent = progress ? (progress.total === 0 ? 100 : Math.round((progress.done / progress.total) * 100)) : 0;
  const counts = { added: 0, already: 0, invalid: 0 };
  for (const row of report) counts[row.outcome]++;

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader title="Add numbers" description="Any written form of a Zimbabwe mobile number: +263 77…, 263 77…, 077…." />
        <CardBody className="space-y-5">
          <form onSubmit={submitHandler(add)} {...errors.formProps} className="flex flex-wrap items-end gap-3">
            <Field id="opt-out-number" label="Phone number" error={errors.errorFor("number")} className="min-w-64 flex-1">
              <Input
                id="opt-out-number"
                name="number"
                value={number}
                onChange={(event) => setNumber(event.target.value)}
                inputMode="tel"
                autoComplete="off"
                placeholder="+263 77 123 4567"
                invalid={!!errors.errorFor("number")}
              />
            </Field>
            <Button type="submit" disabled={pending || !number.trim()}>
              Add to opt-outs
            </Button>
          </form>
          <div className="flex flex-wrap items-center gap-3 border-t border-slate-100 pt-4">
            <label htmlFor="opt-out-csv" className="cursor-pointer">
              <span className="text-sm font-medium text-slate-700">Import a CSV</span>
              <span className="ml-2 text-xs text-slate-500">numbers in the first column; a header row is skipped</span>
              <input
                id="opt-out-csv"
                ref={fileInput}
                type="file"
                accept=".csv,.txt,text/csv,text/plain"
                className="mt-1 block text-sm"
                disabled={progress !== null}
                onChange={(event) => importFile(event.target.files?.[0])}
              />
            </label>
            <a href="/api/dashboard/opt-outs/export" className={buttonClass("secondary")} data-testid="opt-outs-export" download>
              Export CSV
            </a>
          </div>
          {progress && (
            <div className="space-y-1.5" data-testid="opt-out-import-progress">
              <div className="flex justify-between text-xs text-slate-600">
                <span>Importing {progress.total} numbers</span>
                <span className="tabular-nums">{percent}%</span>
              </div>
              <div
                className="h-2 overflow-hidden rounded-full bg-slate-100"
                role="progressbar"
                aria-label="Import progress"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
              >
                <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
              </div>
            </div>
          )}
          {(report.length > 0 || stopped) && (
            <div className="rounded-lg border border-slate-200" data-testid="opt-out-import-report">
              <p className="border-b border-slate-100 px-4 py-2 text-xs font-semibold text-slate-700">
                Import: {counts.added} added, {counts.already} already listed, {counts.invalid} not numbers
              </p>
              {stopped && (
                <p
                  className="border-b border-slate-100 bg-red-50 px-4 py-2 text-xs text-red-700"
                  role="alert"
                  data-testid="opt-out-import-stopped"
                >
                  Stopped at line {stopped.line}: {stopped.error}. Lines {stopped.line} on were not imported; import the file again to add
                  them (numbers already listed stay as they are).
                </p>
              )}
              <ul className="max-h-64 divide-y divide-slate-100 overflow-y-auto text-sm">
                {report.map((row) => (
                  <li key={`${row.line}-${row.value}`} className="flex flex-wrap items-center gap-x-3 px-4 py-1.5" data-testid="import-row">
                    <span className="w-16 text-xs text-slate-400 tabular-nums">line {row.line}</span>
                    <span className="font-mono text-xs break-all text-slate-900">{row.value}</span>
                    <Badge tone={outcomeTone[row.outcome]}>{outcomeLabel[row.outcome]}</Badge>
                    <span className="text-xs text-slate-500">{row.note}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="Opted-out numbers" description="Newest first." />
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(row) => row.number}
          rowAttributes={(row) => ({ "data-testid": "opt-out-row", "data-number": row.number })}
          actions={(row) => (
            <Button
              variant="ghost"
              size="sm"
              className="text-red-600 hover:bg-red-50"
              disabled={pending}
              onClick={() => remove(row)}
              aria-label={`Remove ${row.number}`}
            >
              Remove
            </Button>
          )}
          empty={
            <EmptyState
              icon="users"
              title="No opted-out numbers"
              description="Add a number when its owner asks to receive no more messages from you."
            />
          }
          pagination={{
            firstHref: firstPage ? undefined : "/dashboard/opt-outs",
            nextHref: nextCursor ? `/dashboard/opt-outs?cursor=${encodeURIComponent(nextCursor)}` : undefined,
          }}
        />
      </Card>

      <Card>
        <CardHeader title="Recent changes" description="Each add and remove, with who made it and when." />
        <DataTable
          columns={changeColumns}
          rows={changes}
          rowKey={(row) => String(row.id)}
          rowAttributes={() => ({ "data-testid": "opt-out-change" })}
          empty={<EmptyState icon="history" title="No changes yet" description="Adds and removes appear here." />}
        />
      </Card>
    </div>
  );
}
