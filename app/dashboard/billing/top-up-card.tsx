"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Card, CardHeader } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input, errorFor, submitHandler } from "@/components/ui/field";
import { Badge } from "@/components/ui/badge";
import { notifyOutcome, useToast } from "@/components/ui/toaster";
import { Money } from "@/components/money";
import { Time } from "@/components/time";
import type { FieldError } from "@/lib/errors";
import { MAX_BALANCE, formatMoney } from "@/lib/money";
import { topUpStateLabel } from "@/lib/messages/vocabulary";
import { cancelTopUpAction, requestTopUpAction } from "./actions";

export type TopUpView = {
  id: string;
  amount: string;
  currency: string;
  reference: string;
  note: string;
  state: string;
  decidedAt: string | null;
  declineReason: string | null;
  createdAt: string;
};

const columns: Column<TopUpView>[] = [
  { key: "requested", header: "Requested", nowrap: true, cell: (row) => <Time value={row.createdAt} /> },
  { key: "amount", header: "Amount", numeric: true, cell: (row) => <Money value={row.amount} currency={row.currency} /> },
  {
    key: "reference",
    header: "Reference",
    className: "max-w-xs min-w-40 break-words",
    cell: (row) => (
      <>
        <p className="text-slate-900">{row.reference}</p>
        {row.note && <p className="text-xs text-slate-500">{row.note}</p>}
      </>
    ),
  },
  {
    key: "state",
    header: "State",
    className: "max-w-xs min-w-32 break-words",
    cell: (row) => (
      <>
        <span data-testid="top-up-state">
          <Badge tone={topUpStateLabel(row.state).tone}>{topUpStateLabel(row.state).label}</Badge>
        </span>
        {row.declineReason && (
          <p className="mt-1 text-xs text-slate-600" data-testid="top-up-decline-reason">
            {row.declineReason}
          </p>
        )}
        {row.decidedAt && (
          <p className="mt-1 text-xs text-slate-400">
            <Time value={row.decidedAt} />
          </p>
        )}
      </>
    ),
  },
];

/** The Balance page's top-up requests: owners ask and cancel a pending one; every member sees how each ended. */
export function TopUpCard({ requests, currency, canRequest }: { requests: TopUpView[]; currency: string; canRequest: boolean }) {
  const router = useRouter();
  const notify = useToast();
  const [busy, startTransition] = useTransition();
  const [fields, setFields] = useState<FieldError[] | undefined>();
  const [draft, setDraft] = useState({ amount: "", reference: "", note: "" });

  function submit() {
    startTransition(async () => {
      const result = await requestTopUpAction(draft);
      setFields(result.ok ? undefined : result.fields);
      if (!result.ok) {
        if (!result.fields) notify("error", result.error);
        return;
      }
      setDraft({ amount: "", reference: "", note: "" });
      notify("success", "Top-up requested; Tumira staff will credit it once the payment is matched");
      router.refresh();
    });
  }

  const [cancelling, setCancelling] = useState<TopUpView | null>(null);

  function cancel(request: TopUpView) {
    startTransition(async () => {
      const result = await cancelTopUpAction({ requestId: request.id });
      setCancelling(null);
      notifyOutcome(notify, result, "Top-up request cancelled");
      router.refresh();
    });
  }

  return (
    <Card className="mb-6">
      <CardHeader
        title="Top-up requests"
        description={
          canRequest
            ? "Paid Tumira? Ask for the balance to be credited with the payment's reference; staff approve it once they have matched the payment."
            : "Requests the account's owners made to have the balance credited."
        }
      />
      {canRequest && (
        <form onSubmit={submitHandler(submit)} className="grid gap-4 border-b border-slate-100 px-5 py-4 sm:grid-cols-2 lg:grid-cols-4">
          <Field
            id="top-up-amount"
            label={`Amount (${currency})`}
            hint={`Up to four decimals; at most ${formatMoney(MAX_BALANCE, currency)}.`}
            error={errorFor(fields, "amount")}
          >
            <Input
              id="top-up-amount"
              inputMode="decimal"
              required
              placeholder="100.00"
              value={draft.amount}
              onChange={(event) => setDraft({ ...draft, amount: event.target.value })}
              invalid={!!errorFor(fields, "amount")}
            />
          </Field>
          <Field
            id="top-up-reference"
            label="Payment reference"
            hint="E.g. the bank transfer reference."
            error={errorFor(fields, "reference")}
          >
            <Input
              id="top-up-reference"
              required
              maxLength={100}
              value={draft.reference}
              onChange={(event) => setDraft({ ...draft, reference: event.target.value })}
              invalid={!!errorFor(fields, "reference")}
            />
          </Field>
          <Field id="top-up-note" label="Note (optional)" error={errorFor(fields, "note")}>
            <Input
              id="top-up-note"
              maxLength={300}
              value={draft.note}
              onChange={(event) => setDraft({ ...draft, note: event.target.value })}
              invalid={!!errorFor(fields, "note")}
            />
          </Field>
          <div className="flex items-end">
            <Button type="submit" disabled={busy}>
              {busy ? "Requesting…" : "Request top-up"}
            </Button>
          </div>
        </form>
      )}
      <DataTable
        columns={columns}
        rows={requests}
        rowKey={(row) => row.id}
        rowAttributes={() => ({ "data-testid": "top-up-row" })}
        actions={
          canRequest
            ? (row) =>
                row.state === "pending" ? (
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={busy}
                    onClick={() => setCancelling(row)}
                    aria-label={`Cancel the top-up ${row.reference}`}
                  >
                    Cancel
                  </Button>
                ) : null
            : undefined
        }
        empty={
          <EmptyState
            icon="wallet"
            title="No top-up requests"
            description="The 20 most recent requests and how each ended are listed here."
          />
        }
      />
      <ConfirmDialog
        open={cancelling !== null}
        onClose={() => setCancelling(null)}
        title="Cancel this top-up request?"
        testId="cancel-top-up-dialog"
        description={
          cancelling && (
            <>
              <Money value={cancelling.amount} currency={cancelling.currency} />, reference {cancelling.reference}: Tumira staff will not
              credit it. If you have paid, request it again.
            </>
          )
        }
        confirmLabel="Cancel the request"
        onConfirm={() => cancelling && cancel(cancelling)}
        busy={busy}
        focus="cancel"
      />
    </Card>
  );
}
