"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input, errorFor, submitHandler } from "@/components/ui/field";
import { DataTable, type Column } from "@/components/ui/data-table";
import { useToast } from "@/components/ui/toaster";
import { Money } from "@/components/money";
import { Time } from "@/components/time";
import type { FieldError } from "@/lib/errors";
import { approveSenderAction, creditBalanceAction } from "./actions";

type AccountRow = { id: string; name: string; currency: string; balance: string; members: number; createdAt: string };
type PendingSender = { id: string; name: string; accountId: string; accountName: string; createdAt: string };

const senderColumns: Column<PendingSender>[] = [
  { key: "name", header: "Sender id", className: "font-medium text-slate-900", cell: (sender) => sender.name },
  { key: "account", header: "Account", cell: (sender) => sender.accountName },
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

export function AdminView({ accounts, pending }: { accounts: AccountRow[]; pending: PendingSender[] }) {
  const router = useRouter();
  const notify = useToast();
  const [busy, startTransition] = useTransition();
  const [crediting, setCrediting] = useState<AccountRow | null>(null);
  const [fields, setFields] = useState<FieldError[] | undefined>();

  function approve(sender: PendingSender) {
    startTransition(async () => {
      const result = await approveSenderAction({ accountId: sender.accountId, name: sender.name });
      notify(result.ok ? "success" : "error", result.ok ? `Sender id ${sender.name} approved for ${sender.accountName}` : result.error);
      router.refresh();
    });
  }

  function credit(account: AccountRow, form: FormData) {
    startTransition(async () => {
      const result = await creditBalanceAction({
        accountId: account.id,
        amount: String(form.get("amount") ?? ""),
        reason: String(form.get("reason") ?? ""),
      });
      setFields(result.ok ? undefined : result.fields);
      if (!result.ok) {
        if (!result.fields) notify("error", result.error);
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
        <CardHeader title="Sender ids awaiting approval" description="Check that the account may use the name before approving it." />
        <DataTable
          columns={senderColumns}
          rows={pending}
          rowKey={(sender) => sender.id}
          rowAttributes={() => ({ "data-testid": "pending-sender-row" })}
          actions={(sender) => (
            <Button
              size="sm"
              disabled={busy}
              onClick={() => approve(sender)}
              aria-label={`Approve ${sender.name} for ${sender.accountName}`}
            >
              Approve
            </Button>
          )}
          empty={<EmptyState icon="tag" title="Nothing to review" description="Sender id requests from account owners appear here." />}
        />
      </Card>

      <Card>
        <CardHeader title="Accounts" />
        <DataTable
          columns={accountColumns}
          rows={accounts}
          rowKey={(account) => account.id}
          rowAttributes={(account) => ({ "data-testid": "account-row", "data-account-name": account.name })}
          actions={(account) => (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                setFields(undefined);
                setCrediting(account);
              }}
              aria-label={`Credit ${account.name}`}
            >
              Credit
            </Button>
          )}
          empty={
            <EmptyState icon="building" title="No accounts yet" description="Create one with the CLI: npm run cli -- accounts:create." />
          }
        />
      </Card>

      <Dialog
        open={crediting !== null}
        onRequestClose={() => setCrediting(null)}
        title={`Credit ${crediting?.name ?? ""}`}
        description="Adds to the available balance at once, as a ledger credit."
        testId="credit-dialog"
      >
        {crediting && (
          <form onSubmit={submitHandler((form) => credit(crediting, form))} className="space-y-4">
            <Field
              id="credit-amount"
              label={`Amount (${crediting.currency})`}
              hint="Up to four decimals, e.g. 25.50"
              error={errorFor(fields, "amount")}
            >
              <Input
                id="credit-amount"
                name="amount"
                inputMode="decimal"
                required
                autoFocus
                invalid={!!errorFor(fields, "amount")}
                placeholder="25.00"
              />
            </Field>
            <Field
              id="credit-reason"
              label="Reason"
              hint="Shown in the account's ledger, e.g. “Invoice 2024-031 paid”."
              error={errorFor(fields, "reason")}
            >
              <Input id="credit-reason" name="reason" required maxLength={200} invalid={!!errorFor(fields, "reason")} />
            </Field>
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => setCrediting(null)}>
                Cancel
              </Button>
              <Button type="submit" disabled={busy}>
                {busy ? "Crediting…" : "Credit balance"}
              </Button>
            </div>
          </form>
        )}
      </Dialog>
    </div>
  );
}
