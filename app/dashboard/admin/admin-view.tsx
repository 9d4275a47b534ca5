"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { ReasonDialog } from "@/components/ui/reason-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input, submitHandler } from "@/components/ui/field";
import { DataTable, type Column, type Pagination } from "@/components/ui/data-table";
import { FilterForm } from "@/components/ui/filter-form";
import { notifyOutcome, useToast } from "@/components/ui/toaster";
import { Badge } from "@/components/ui/badge";
import { Money } from "@/components/money";
import { Time } from "@/components/time";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { MAX_BALANCE, formatMoney } from "@/lib/money";
import { approveSenderAction, creditBalanceAction, rejectSenderAction, reverseCreditAction } from "./actions";
import { creditBalanceSchema } from "./credit-schema";
import { AssignNumberDialog } from "./assign-number-dialog";
import { fieldErrorsOf } from "@/lib/ledger/credit-schemas";

type AccountRow = { id: string; name: string; currency: string; balance: string; members: number; createdAt: string };
export type CreditRowView = {
  id: number;
  accountId: string;
  accountName: string;
  currency: string;
  amount: string;
  reason: string;
  actor: string;
  createdAt: string;
  reversed: boolean;
};
type PendingSender = { id: string; name: string; useCase: string; accountId: string; accountName: string; createdAt: string };

const senderColumns: Column<PendingSender>[] = [
  { key: "name", header: "Sender id", className: "font-medium text-slate-900 break-all", cell: (sender) => sender.name },
  { key: "account", header: "Account", className: "break-words", cell: (sender) => sender.accountName },
  {
    key: "useCase",
    header: "Use",
    className: "text-slate-600 break-words",
    cell: (sender) => sender.useCase || <span className="text-slate-400">Not stated</span>,
  },
  { key: "requested", header: "Requested", nowrap: true, cell: (sender) => <Time value={sender.createdAt} /> },
];

const accountColumns: Column<AccountRow>[] = [
  {
    key: "account",
    header: "Account",
    cell: (account) => (
      <>
        <p className="font-medium text-slate-900">{account.name}</p>
        <p className="font-mono text-xs text-slate-400">{account.id}</p>
      </>
    ),
  },
  { key: "members", header: "Members", numeric: true, cell: (account) => account.members },
  { key: "created", header: "Created", nowrap: true, cell: (account) => <Time value={account.createdAt} /> },
  {
    key: "balance",
    header: "Available balance",
    numeric: true,
    className: "font-medium",
    cell: (account) => (
      <span data-testid="account-balance">
        <Money value={account.balance} currency={account.currency} />
      </span>
    ),
  },
];

const creditColumns: Column<CreditRowView>[] = [
  { key: "account", header: "Account", className: "font-medium text-slate-900 break-words", cell: (credit) => credit.accountName },
  {
    key: "amount",
    header: "Amount",
    numeric: true,
    cell: (credit) => <Money value={credit.amount} currency={credit.currency} />,
  },
  { key: "reason", header: "Note", className: "break-words", cell: (credit) => credit.reason },
  { key: "by", header: "By", className: "break-all", cell: (credit) => credit.actor },
  { key: "when", header: "When", nowrap: true, cell: (credit) => <Time value={credit.createdAt} /> },
];

type CreditDraft = { amount: string; reason: string };

/** One page of the accounts, by name: the name filter it applied, the filter values it refused, and its page links. */
export type AccountsPage = { rows: AccountRow[]; name?: string; problems: string[]; pagination: Pagination };

export function AdminView({ accounts, pending, credits }: { accounts: AccountsPage; pending: PendingSender[]; credits: CreditRowView[] }) {
  const router = useRouter();
  const notify = useToast();
  const [busy, startTransition] = useTransition();
  const [crediting, setCrediting] = useState<AccountRow | null>(null);
  const [assigning, setAssigning] = useState<AccountRow | null>(null);
  const errors = useFieldErrors();
  const [draft, setDraft] = useState<CreditDraft>({ amount: "", reason: "" });
  /** The parsed amount once the form passed its checks: the dialog then asks to confirm it. */
  const [confirming, setConfirming] = useState<bigint | null>(null);
  const [reversing, setReversing] = useState<CreditRowView | null>(null);
  const [reverseNote, setReverseNote] = useState("");
  const [rejecting, setRejecting] = useState<PendingSender | null>(null);
  const [rejectReason, setRejectReason] = useState("");

  function reject(sender: PendingSender) {
    startTransition(async () => {
      const result = await rejectSenderAction({ accountId: sender.accountId, name: sender.name, reason: rejectReason });
      if (!errors.accepted(result)) return;
      setRejecting(null);
      notify("success", `Sender id ${sender.name} rejected for ${sender.accountName}`);
      router.refresh();
    });
  }

  function openCredit(account: AccountRow) {
    errors.setFields(undefined);
    setDraft({ amount: "", reason: "" });
    setConfirming(null);
    setCrediting(account);
  }

  function review(account: AccountRow) {
    const parsed = creditBalanceSchema.safeParse({ accountId: account.id, ...draft });
    if (!parsed.success) {
      errors.setFields(fieldErrorsOf(parsed.error));
      return;
    }
    errors.setFields(undefined);
    setConfirming(parsed.data.amount);
  }

  function reverse(credit: CreditRowView) {
    startTransition(async () => {
      const result = await reverseCreditAction({ accountId: credit.accountId, creditId: credit.id, note: reverseNote });
      if (!errors.accepted(result)) return;
      setReversing(null);
      notify("success", `Credit of ${formatMoney(BigInt(credit.amount), credit.currency)} to ${credit.accountName} reversed`);
      router.refresh();
    });
  }

  function approve(sender: PendingSender) {
    startTransition(async () => {
      const result = await approveSenderAction({ accountId: sender.accountId, name: sender.name });
      notifyOutcome(notify, result, `Sender id ${sender.name} approved for ${sender.accountName}`);
      router.refresh();
    });
  }

  function credit(account: AccountRow) {
    startTransition(async () => {
      const result = await creditBalanceAction({ accountId: account.id, amount: draft.amount, reason: draft.reason });
      if (!errors.accepted(result)) {
        setConfirming(null);
        return;
      }
      setCrediting(null);
      notify("success", `${account.name} credited`);
      router.refresh();
    });
  }

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Sender ids awaiting review"
          description="Check that the account may use the name for what it says before approving it; a rejection's reason is shown to the account."
        />
        <DataTable
          columns={senderColumns}
          rows={pending}
          rowKey={(sender) => sender.id}
          rowAttributes={() => ({ "data-testid": "pending-sender-row" })}
          actions={(sender) => (
            <div className="flex gap-2">
              <Button
                size="sm"
                disabled={busy}
                onClick={() => approve(sender)}
                aria-label={`Approve ${sender.name} for ${sender.accountName}`}
              >
                Approve
              </Button>
              <Button
                size="sm"
                variant="secondary"
                disabled={busy}
                onClick={() => {
                  errors.setFields(undefined);
                  setRejectReason("");
                  setRejecting(sender);
                }}
                aria-label={`Reject ${sender.name} for ${sender.accountName}`}
              >
                Reject
              </Button>
            </div>
          )}
          empty={<EmptyState icon="tag" title="Nothing to review" description="Sender id requests from account owners appear here." />}
        />
      </Card>

      <Card>
        <CardHeader title="Accounts" description="By name." />
        <FilterForm resetHref="/dashboard/admin" problems={accounts.problems}>
          <Field id="account-name-filter" label="Name">
            <Input id="account-name-filter" name="name" placeholder="any part, any case" defaultValue={accounts.name} />
          </Field>
        </FilterForm>
        <DataTable
          columns={accountColumns}
          rows={accounts.rows}
          rowKey={(account) => account.id}
          rowAttributes={(account) => ({ "data-testid": "account-row", "data-account-name": account.name })}
          actions={(account) => (
            <>
              <Button size="sm" variant="secondary" onClick={() => openCredit(account)} aria-label={`Credit ${account.name}`}>
                Credit
              </Button>
              <Button size="sm" variant="secondary" onClick={() => setAssigning(account)} aria-label={`Assign a number to ${account.name}`}>
                Assign number
              </Button>
            </>
          )}
          empty={
            accounts.name ? (
              <EmptyState icon="building" title="No accounts match" description={`No account's name contains “${accounts.name}”.`} />
            ) : (
              <EmptyState icon="building" title="No accounts yet" description="Create one with the CLI: npm run cli -- accounts:create." />
            )
          }
          pagination={accounts.pagination}
        />
      </Card>

      <AssignNumberDialog account={assigning} onClose={() => setAssigning(null)} />

      <Card>
        <CardHeader
          title="Recent credits"
          description="A credit is never edited: reversing one writes a correcting ledger entry of the opposite amount, with your note."
        />
        <DataTable
          columns={creditColumns}
          rows={credits}
          rowKey={(credit) => String(credit.id)}
          rowAttributes={(credit) => ({ "data-testid": "credit-row", "data-account-name": credit.accountName })}
          actions={(credit) =>
            credit.reversed ? (
              <Badge tone="gray">Reversed</Badge>
            ) : (
              <Button
                size="sm"
                variant="secondary"
                onClick={() => {
                  errors.setFields(undefined);
                  setReverseNote("");
                  setReversing(credit);
                }}
                aria-label={`Reverse the credit of ${formatMoney(BigInt(credit.amount), credit.currency)} to ${credit.accountName}`}
              >
                Reverse
              </Button>
            )
          }
          empty={<EmptyState icon="wallet" title="No credits yet" description="Credits made here or with the CLI appear here." />}
        />
      </Card>

      <Dialog
        open={crediting !== null}
        onRequestClose={() => setCrediting(null)}
        title={`Credit ${crediting?.name ?? ""}`}
        description="Adds to the available balance at once, as a ledger credit."
        testId="credit-dialog"
      >
        {crediting && confirming === null && (
          <form onSubmit={submitHandler(() => review(crediting))} {...errors.formProps} className="space-y-4">
            <Field
              id="credit-amount"
              label={`Amount (${crediting.currency})`}
              hint={`Up to four decimals, e.g. 25.50; at most ${formatMoney(MAX_BALANCE, crediting.currency)}.`}
              error={errors.errorFor("amount")}
            >
              <Input
                id="credit-amount"
                name="amount"
                inputMode="decimal"
                required
                autoFocus
                value={draft.amount}
                onChange={(event) => setDraft({ ...draft, amount: event.target.value })}
                invalid={!!errors.errorFor("amount")}
                placeholder="25.00"
              />
            </Field>
            <Field
              id="credit-reason"
              label="Reason"
              hint="Required. Shown in the account's ledger, e.g. “Invoice 2024-031 paid”."
              error={errors.errorFor("reason")}
            >
              <Input
                id="credit-reason"
                name="reason"
                required
                maxLength={200}
                value={draft.reason}
                onChange={(event) => setDraft({ ...draft, reason: event.target.value })}
                invalid={!!errors.errorFor("reason")}
              />
            </Field>
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => setCrediting(null)}>
                Cancel
              </Button>
              <Button type="submit">Review credit</Button>
            </div>
          </form>
        )}
        {crediting && confirming !== null && (
          <div className="space-y-4" data-testid="credit-confirmation">
            <p className="text-sm break-words text-slate-700">
              Credit{" "}
              <strong className="text-slate-900" data-testid="credit-confirm-amount">
                {formatMoney(confirming, crediting.currency)}
              </strong>{" "}
              to <strong className="text-slate-900">{crediting.name}</strong>? The available balance goes from{" "}
              <Money value={crediting.balance} currency={crediting.currency} /> to{" "}
              <Money value={BigInt(crediting.balance) + confirming} currency={crediting.currency} testId="credit-confirm-after" />.
            </p>
            <p className="text-sm break-words text-slate-500">Reason: {draft.reason.trim()}</p>
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="secondary" onClick={() => setConfirming(null)}>
                Back
              </Button>
              <Button autoFocus disabled={busy} onClick={() => credit(crediting)}>
                {busy ? "Crediting…" : `Credit ${formatMoney(confirming, crediting.currency)}`}
              </Button>
            </div>
          </div>
        )}
      </Dialog>

      <ReasonDialog
        open={rejecting !== null}
        onClose={() => setRejecting(null)}
        title={`Reject ${rejecting?.name ?? ""}`}
        description="The account sees this reason on its Sender IDs page and may request the name again."
        testId="reject-sender-dialog"
        fieldId="reject-reason"
        reason={rejectReason}
        onReasonChange={setRejectReason}
        errors={errors}
        busy={busy}
        confirmLabel={`Reject ${rejecting?.name ?? ""}`}
        onConfirm={() => rejecting && reject(rejecting)}
      />

      <Dialog
        open={reversing !== null}
        onRequestClose={() => setReversing(null)}
        title="Reverse a credit"
        description="Writes a ledger entry of the opposite amount; the credit stays in the ledger as it was."
        testId="reverse-credit-dialog"
      >
        {reversing && (
          <form onSubmit={submitHandler(() => reverse(reversing))} {...errors.formProps} className="space-y-4">
            <p className="text-sm break-words text-slate-700">
              Take back{" "}
              <strong className="text-slate-900" data-testid="reverse-amount">
                {formatMoney(BigInt(reversing.amount), reversing.currency)}
              </strong>{" "}
              credited to <strong className="text-slate-900">{reversing.accountName}</strong> (“{reversing.reason}”)?
            </p>
            <Field id="reverse-note" label="Why" hint="Required; shown in the account's ledger." error={errors.errorFor("note")}>
              <Input
                id="reverse-note"
                name="note"
                required
                autoFocus
                maxLength={200}
                value={reverseNote}
                onChange={(event) => setReverseNote(event.target.value)}
                invalid={!!errors.errorFor("note")}
              />
            </Field>
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="secondary" onClick={() => setReversing(null)}>
                Cancel
              </Button>
              <Button type="submit" variant="danger" disabled={busy}>
                {busy ? "Reversing…" : `Reverse ${formatMoney(BigInt(reversing.amount), reversing.currency)}`}
              </Button>
            </div>
          </form>
        )}
      </Dialog>
    </div>
  );
}
