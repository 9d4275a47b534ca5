"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Dialog } from "@/components/ui/dialog";
import { ReasonDialog } from "@/components/ui/reason-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { useToast } from "@/components/ui/toaster";
import { Money } from "@/components/money";
import { Time } from "@/components/time";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { formatMoney } from "@/lib/money";
import { approveTopUpAction, declineTopUpAction } from "./actions";

type PendingTopUp = {
  id: string;
  accountName: string;
  amount: string;
  currency: string;
  reference: string;
  note: string;
  requestedBy: string;
  createdAt: string;
};

const columns: Column<PendingTopUp>[] = [
  {
    key: "account",
    header: "Account",
    className: "max-w-xs min-w-40 break-words",
    cell: (row) => (
      <>
        <p className="font-medium text-slate-900">{row.accountName}</p>
        <p className="text-xs break-all text-slate-500">{row.requestedBy}</p>
      </>
    ),
  },
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
  { key: "requested", header: "Requested", nowrap: true, cell: (row) => <Time value={row.createdAt} /> },
];

export function TopUpsView({ requests }: { requests: PendingTopUp[] }) {
  const router = useRouter();
  const notify = useToast();
  const [busy, startTransition] = useTransition();
  const [approving, setApproving] = useState<PendingTopUp | null>(null);
  const [declining, setDeclining] = useState<PendingTopUp | null>(null);
  const [reason, setReason] = useState("");
  const errors = useFieldErrors();

  function approve(request: PendingTopUp) {
    startTransition(async () => {
      const result = await approveTopUpAction({ requestId: request.id });
      setApproving(null);
      notify(
        result.ok ? "success" : "error",
        result.ok ? `${request.accountName} credited ${formatMoney(BigInt(request.amount), request.currency)}` : result.error,
      );
      router.refresh();
    });
  }

  function decline(request: PendingTopUp) {
    startTransition(async () => {
      const result = await declineTopUpAction({ requestId: request.id, reason });
      if (!errors.accepted(result)) {
        if (result.code === "CONFLICT") setDeclining(null);
        router.refresh();
        return;
      }
      setDeclining(null);
      notify("success", `Top-up ${request.reference} declined`);
      router.refresh();
    });
  }

  return (
    <>
      <Card>
        <DataTable
          columns={columns}
          rows={requests}
          rowKey={(row) => row.id}
          rowAttributes={(row) => ({ "data-testid": "pending-top-up-row", "data-account-name": row.accountName })}
          actions={(row) => (
            <>
              <Button size="sm" disabled={busy} onClick={() => setApproving(row)} aria-label={`Approve the top-up ${row.reference}`}>
                Approve
              </Button>
              <Button
                size="sm"
                variant="secondary"
                disabled={busy}
                onClick={() => {
                  errors.setFields(undefined);
                  setReason("");
                  setDeclining(row);
                }}
                aria-label={`Decline the top-up ${row.reference}`}
              >
                Decline
              </Button>
            </>
          )}
          empty={
            <EmptyState icon="wallet" title="No pending top-up requests" description="Owners ask for top-ups on their Balance page." />
          }
        />
      </Card>

      <Dialog
        open={approving !== null}
        onRequestClose={() => setApproving(null)}
        title="Approve a top-up"
        description="Credits the balance at once, as a ledger credit under your name that names the request."
        testId="approve-top-up-dialog"
      >
        {approving && (
          <div className="space-y-4">
            <p className="text-sm break-words text-slate-700">
              Credit{" "}
              <strong className="text-slate-900" data-testid="approve-top-up-amount">
                {formatMoney(BigInt(approving.amount), approving.currency)}
              </strong>{" "}
              to <strong className="text-slate-900">{approving.accountName}</strong> for the payment “{approving.reference}”?
            </p>
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="secondary" onClick={() => setApproving(null)}>
                Cancel
              </Button>
              <Button autoFocus disabled={busy} onClick={() => approve(approving)}>
                {busy ? "Crediting…" : `Credit ${formatMoney(BigInt(approving.amount), approving.currency)}`}
              </Button>
            </div>
          </div>
        )}
      </Dialog>

      <ReasonDialog
        open={declining !== null}
        onClose={() => setDeclining(null)}
        title="Decline a top-up"
        description="Nothing is credited; the account sees your reason on its Balance page."
        testId="decline-top-up-dialog"
        fieldId="decline-reason"
        reason={reason}
        onReasonChange={setReason}
        errors={errors}
        busy={busy}
        confirmLabel={declining ? `Decline ${formatMoney(BigInt(declining.amount), declining.currency)}` : ""}
        onConfirm={() => declining && decline(declining)}
      />
    </>
  );
}
