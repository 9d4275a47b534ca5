"use client";

import { csvLine } from "@/lib/csv";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field, Input, Textarea, errorFor } from "@/components/ui/field";
import { Table, Td, Th } from "@/components/ui/table";
import { useToast } from "@/components/ui/toaster";
import { operators } from "@/lib/carriers/operators";
import { Money } from "@/components/money";
import { checkRecipients, extractCandidates, type CheckedRecipients } from "@/lib/dashboard/check-recipient-list";
import { priceSend } from "@/lib/dashboard/price-send";
import { MAX_SEGMENTS } from "@/lib/messages/segments";
import { carrierName } from "@/lib/messages/vocabulary";
import type { DashboardErrorBody } from "@/lib/dashboard/dashboard-route";
import { sendErrorText, type RecipientsProps } from "./compose-shared";
import { findOptedOutAction } from "../opt-outs/actions";

/** The server's answer of which numbers are on the account's opt-out list; a refusal of the check is an error. */
export async function findOptedOut(numbers: string[]): Promise<string[]> {
  const result = await findOptedOutAction({ numbers });
  if (!result.ok) throw new Error(result.error);
  return result.data;
}

type Progress = { label: string; done: number; total: number };
type BulkResult = { bulkSendId: string; total: number; charge: string; currency: string };

const LISTED_PROBLEMS = 100;

/** What the number check refused, kept after the send so it can be fixed and downloaded. */
type InvalidReport = CheckedRecipients["invalid"];

/**
 * Whether a chosen file can be a list of numbers: a .csv or .txt name or a text type, and no NUL
 * byte in its first kilobytes (images, spreadsheets and archives all have them).
 */
async function looksLikeCsv(file: File): Promise<boolean> {
  if (!/\.(csv|txt)$/i.test(file.name) && !file.type.startsWith("text/")) return false;
  const head = new Uint8Array(await file.slice(0, 4096).arrayBuffer());
  return !head.includes(0);
}

function invalidRowsCsv(rows: InvalidReport): string {
  return csvLine(["line", "value", "reason"]) + rows.map((row) => csvLine([String(row.line), row.value, row.reason])).join("");
}

function downloadCsv(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** POSTs the send with XMLHttpRequest, whose upload events drive the progress bar (fetch has none). */
function postBulk(
  payload: unknown,
  onUpload: (done: number, total: number) => void,
): Promise<{ status: number; body: BulkResult | DashboardErrorBody }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/api/dashboard/sends/bulk");
    request.setRequestHeader("content-type", "application/json");
    request.upload.onprogress = (event) => event.lengthComputable && onUpload(event.loaded, event.total);
    request.onload = () => {
      try {
        resolve({ status: request.status, body: JSON.parse(request.responseText) });
      } catch {
        reject(new Error(`The server answered ${request.status}`));
      }
    };
    request.onerror = () => reject(new Error("The network request failed"));
    request.send(JSON.stringify(payload));
  });
}

function ProgressBar({ progress }: { progress: Progress }) {
  const percent = progress.total === 0 ? 100 : Math.round((progress.done / progress.total) * 100);
  return (
    <div className="space-y-1.5" data-testid="bulk-progress">
      <div className="flex justify-between text-xs text-slate-600">
        <span>{progress.label}</span>
        <span className="tabular-nums">{percent}%</span>
      </div>
      <div
        className="h-2 overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-label={progress.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

export function BulkRecipients({
  from,
  body,
  segments,
  rates,
  currency,
  available,
  fields,
  onFields,
  onSendStart,
  onSent,
  delivery,
}: RecipientsProps) {
  const notify = useToast();
  const router = useRouter();
  const fileInput = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [csv, setCsv] = useState<{ name: string; text: string } | null>(null);
  const [webhookUrl, setWebhookUrl] = useState("");
  const [checked, setChecked] = useState<CheckedRecipients | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [result, setResult] = useState<BulkResult | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [report, setReport] = useState<InvalidReport>([]);

  const price = checked ? priceSend(segments, rates, checked.perOperator) : null;
  const overBalance = price !== null && price.total > BigInt(available);

  async function check() {
    setResult(null);
    setRefusal(null);
    const candidates = csv ? extractCandidates(csv.text, { csv: true }) : extractCandidates(text, { csv: false });
    setProgress({ label: `Checking ${candidates.length} numbers`, done: 0, total: candidates.length });
    let outcome: CheckedRecipients;
    try {
      outcome = await checkRecipients(
        candidates,
        (done, total) => setProgress({ label: `Checking ${total} numbers`, done, total }),
        findOptedOut,
      );
    } catch (error) {
      setProgress(null);
      setRefusal((error as Error).message);
      return;
    }
    setChecked(outcome);
    setReport(outcome.invalid);
    setProgress(null);
  }

  async function send() {
    if (!checked) return;
    setRefusal(null);
    onSendStart();
    setProgress({ label: `Submitting ${checked.valid.length} messages`, done: 0, total: 1 });
    try {
      const payload = {
        to: checked.valid.map((recipient) => recipient.to),
        message: body,
        from,
        ...(webhookUrl.trim() ? { webhook_url: webhookUrl.trim() } : {}),
        ...delivery,
      };
      const response = await postBulk(payload, (done, total) =>
        setProgress({ label: `Submitting ${checked.valid.length} messages`, done, total }),
      );
      if (response.status !== 200) {
        const error = response.body as DashboardErrorBody;
        onFields(error.fields);
        setRefusal(sendErrorText(error));
        return;
      }
      const accepted = response.body as BulkResult;
      setResult(accepted);
      // The form empties so that a second click cannot send the same list again; the invalid rows stay.
      setChecked(null);
      setText("");
      setCsv(null);
      setWebhookUrl("");
      if (fileInput.current) fileInput.current.value = "";
      onSent();
      router.refresh();
      notify("success", `${accepted.total} messages accepted`);
    } catch (error) {
      setRefusal((error as Error).message);
    } finally {
      setProgress(null);
    }
  }

  async function pickFile(file: File | undefined) {
    setChecked(null);
    setReport([]);
    setFileError(null);
    if (file && !(await looksLikeCsv(file))) {
      setCsv(null);
      setFileError(`${file.name} is not a CSV file. Choose a .csv or .txt file with the numbers in its first column.`);
      if (fileInput.current) fileInput.current.value = "";
      return;
    }
    setCsv(file ? { name: file.name, text: await file.text() } : null);
  }

  return (
    <Card>
      <CardHeader
        title="Recipients"
        description="Paste numbers (one per line, or separated by commas) or upload a CSV whose first column holds them."
      />
      <CardBody className="space-y-5">
        <div className="grid gap-4 md:grid-cols-2">
          <Field id="bulk-numbers" label="Paste numbers">
            <Textarea
              id="bulk-numbers"
              rows={6}
              value={text}
              disabled={csv !== null}
              onChange={(event) => {
                setText(event.target.value);
                setChecked(null);
                setReport([]);
              }}
              placeholder={"+263771234567\n0712345678"}
              className="font-mono text-xs"
            />
          </Field>
          <div>
            <p className="block text-sm font-medium text-slate-700">Or upload a CSV</p>
            <label
              htmlFor="bulk-csv"
              className="mt-1 flex h-[8.75rem] cursor-pointer flex-col items-center justify-center rounded-md border border-dashed border-slate-300 bg-slate-50 px-4 text-center text-sm text-slate-500 hover:border-brand-500 focus-within:ring-2 focus-within:ring-brand-500/30"
            >
              <span className="font-medium text-slate-700">{csv ? csv.name : "Choose a .csv file"}</span>
              <span className="mt-1 text-xs">{csv ? "First column read; a header row is skipped" : "Numbers in the first column"}</span>
              <input
                id="bulk-csv"
                ref={fileInput}
                type="file"
                accept=".csv,.txt,text/csv,text/plain"
                className="sr-only"
                onChange={(event) => pickFile(event.target.files?.[0])}
              />
            </label>
            {fileError && (
              <p className="mt-1 text-xs text-red-600" data-testid="bulk-csv-error" role="status">
                {fileError}
              </p>
            )}
            {csv && (
              <button
                type="button"
                className="mt-1 text-xs text-slate-500 underline"
                onClick={() => {
                  pickFile(undefined);
                  if (fileInput.current) fileInput.current.value = "";
                }}
              >
                Remove file
              </button>
            )}
          </div>
        </div>
        <Field
          id="bulk-webhook"
          label="Webhook URL (optional)"
          hint="Tumira posts each message's status changes here, signed with your webhook secret."
          error={errorFor(fields, "webhook_url")}
        >
          <Input
            id="bulk-webhook"
            type="url"
            value={webhookUrl}
            onChange={(event) => setWebhookUrl(event.target.value)}
            placeholder="https://example.com/hooks/sms"
            invalid={!!errorFor(fields, "webhook_url")}
          />
        </Field>
        {progress && <ProgressBar progress={progress} />}
        {checked && price && <CheckSummary checked={checked} price={price} segments={segments} currency={currency} available={available} />}
        {report.length > 0 && (
          <div className="space-y-2">
            <ProblemList
              title="Invalid numbers (not sent)"
              rows={report.map((entry) => ({ line: entry.line, value: entry.value, note: entry.reason }))}
              testId="invalid-row"
            />
            <Button variant="secondary" onClick={() => downloadCsv("invalid-numbers.csv", invalidRowsCsv(report))}>
              Download invalid rows (CSV)
            </Button>
          </div>
        )}
        {refusal && (
          <p className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700" data-testid="send-error">
            {refusal}
          </p>
        )}
        {result && (
          <div className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900" data-testid="bulk-result">
            <p className="font-medium">
              {result.total} messages accepted; <Money value={result.charge} currency={result.currency} testId="bulk-result-charge" /> held.
            </p>
            <Link
              href={`/dashboard/messages?bulk=${result.bulkSendId}`}
              className="mt-1 inline-block font-medium text-brand-700 underline"
              data-testid="bulk-result-link"
            >
              View the messages
            </Link>
          </div>
        )}
        <div className="flex flex-wrap justify-end gap-2 border-t border-slate-100 pt-4">
          <Button variant="secondary" onClick={check} disabled={progress !== null || (!text.trim() && !csv)}>
            Check numbers
          </Button>
          <Button
            onClick={send}
            disabled={progress !== null || !checked || checked.valid.length === 0 || !body.trim() || overBalance || segments > MAX_SEGMENTS}
          >
            {checked ? `Send to ${checked.valid.length} recipients` : "Send"}
          </Button>
        </div>
      </CardBody>
    </Card>
  );
}

function CheckSummary({
  checked,
  price,
  segments,
  currency,
  available,
}: {
  checked: CheckedRecipients;
  price: ReturnType<typeof priceSend>;
  segments: number;
  currency: string;
  available: string;
}) {
  const overBalance = price.total > BigInt(available);
  return (
    <div className="space-y-4" data-testid="bulk-summary">
      <div className="grid gap-3 sm:grid-cols-4">
        <Summary label="Valid recipients" value={checked.valid.length} testId="bulk-valid-count" />
        <Summary
          label="Invalid"
          value={checked.invalid.length}
          tone={checked.invalid.length ? "red" : undefined}
          testId="bulk-invalid-count"
        />
        <Summary
          label="Duplicates removed"
          value={checked.duplicates.length}
          tone={checked.duplicates.length ? "amber" : undefined}
          testId="bulk-duplicate-count"
        />
        <Summary
          label="Opted out (not sent)"
          value={checked.optedOut.length}
          tone={checked.optedOut.length ? "amber" : undefined}
          testId="bulk-opted-out-count"
        />
      </div>
      {checked.optedOut.length > 0 && (
        <ProblemList
          title="Opted out: not sent, not charged"
          rows={checked.optedOut.map((entry) => ({ line: entry.line, value: entry.value, note: `${entry.to} is on your opt-out list` }))}
          testId="opted-out-row"
        />
      )}
      {checked.duplicates.length > 0 && (
        <ProblemList
          title="Duplicates (sent once)"
          rows={checked.duplicates.map((entry) => ({
            line: entry.line,
            value: entry.value,
            note: `same as line ${entry.firstLine} (${entry.to})`,
          }))}
          testId="duplicate-row"
        />
      )}
      <div className="overflow-hidden rounded-lg border border-slate-200">
        <Table>
          <thead>
            <tr>
              <Th>Carrier</Th>
              <Th className="text-right">Recipients</Th>
              <Th className="text-right">Segments</Th>
              <Th className="text-right">Cost</Th>
            </tr>
          </thead>
          <tbody>
            {operators.map((operator) => (
              <tr key={operator} data-testid="carrier-summary-row">
                <Td>{carrierName(operator)}</Td>
                <Td className="text-right tabular-nums">{checked.perOperator[operator]}</Td>
                <Td className="text-right tabular-nums">{checked.perOperator[operator] * segments}</Td>
                <Td className="text-right">
                  <Money value={price.perOperator[operator]} currency={currency} />
                </Td>
              </tr>
            ))}
            <tr className="font-semibold text-slate-900">
              <Td>Total</Td>
              <Td className="text-right tabular-nums">{checked.valid.length}</Td>
              <Td className="text-right tabular-nums" data-testid="bulk-total-segments">
                {checked.valid.length * segments}
              </Td>
              <Td className="text-right">
                <Money value={price.total} currency={currency} testId="bulk-total-cost" />
              </Td>
            </tr>
          </tbody>
        </Table>
      </div>
      <p className={overBalance ? "text-sm font-medium text-red-700" : "text-sm text-slate-500"} data-testid="bulk-balance-check">
        {overBalance ? (
          <>
            This send costs more than the available balance (<Money value={available} currency={currency} />
            ). Remove recipients or ask for a top-up.
          </>
        ) : (
          <>
            Available balance: <Money value={available} currency={currency} />; after this send:{" "}
            <Money value={BigInt(available) - price.total} currency={currency} />.
          </>
        )}
      </p>
    </div>
  );
}

function Summary({ label, value, tone, testId }: { label: string; value: number; tone?: "red" | "amber"; testId: string }) {
  const color = tone === "red" ? "text-red-700" : tone === "amber" ? "text-amber-700" : "text-slate-900";
  return (
    <div className="rounded-lg border border-slate-200 px-4 py-3">
      <p className="text-xs text-slate-500">{label}</p>
      <p className={`mt-0.5 text-xl font-semibold tabular-nums ${color}`} data-testid={testId}>
        {value}
      </p>
    </div>
  );
}

function ProblemList({ title, rows, testId }: { title: string; rows: { line: number; value: string; note: string }[]; testId: string }) {
  return (
    <div className="rounded-lg border border-slate-200">
      <p className="border-b border-slate-100 px-4 py-2 text-xs font-semibold text-slate-700">{title}</p>
      <ul className="max-h-48 divide-y divide-slate-100 overflow-y-auto text-sm">
        {rows.slice(0, LISTED_PROBLEMS).map((row) => (
          <li key={`${row.line}-${row.value}`} className="flex flex-wrap gap-x-3 px-4 py-1.5" data-testid={testId}>
            <span className="w-16 text-xs text-slate-400 tabular-nums">line {row.line}</span>
            <span className="font-mono text-xs text-slate-900">{row.value}</span>
            <span className="text-xs text-slate-500">{row.note}</span>
          </li>
        ))}
        {rows.length > LISTED_PROBLEMS && <li className="px-4 py-1.5 text-xs text-slate-500">and {rows.length - LISTED_PROBLEMS} more</li>}
      </ul>
    </div>
  );
}
