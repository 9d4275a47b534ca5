"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input, errorFor, submitHandler } from "@/components/ui/field";
import { Table, Td, Th } from "@/components/ui/table";
import { useToast } from "@/components/ui/toaster";
import { Money } from "@/components/money";
import { Time } from "@/components/time";
import type { FieldError } from "@/lib/errors";
import { approveSenderAction, creditBalanceAction } from "./actions";

type AccountRow = { id: string; name: string; currency: string; balance: string; members: number; createdAt: string };
type PendingSender = { id: string; name: string; accountId: string; accountName: string; createdAt: string };

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
      const result = await creditBalanceAction({ accountId: account.id, amount: String(form.get("amount") ?? ""), reason: String(form.get("reason") ?? "") });
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
        {pending.length === 0 ? (
          <EmptyState title="Nothing to review" description="Sender id requests from account owners appear here." />
        ) : (
          <Table>
            <thead>
              <tr><Th>Sender id</Th><Th>Account</Th><Th>Requested</Th><Th><span className="sr-only">Actions</span></Th></tr>
            </thead>
            <tbody>
              {pending.map((sender) => (
                <tr key={sender.id} data-testid="pending-sender-row">
                  <Td className="font-medium text-slate-900">{sender.name}</Td>
                  <Td>{sender.accountName}</Td>
                  <Td><Time value={sender.createdAt} /></Td>
                  <Td className="text-right">
                    <Button size="sm" disabled={busy} onClick={() => approve(sender)} aria-label={`Approve ${sender.name} for ${sender.accountName}`}>Approve</Button>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>

      <Card>
        <CardHeader title="Accounts" />
        <Table>
          <thead>
            <tr><Th>Account</Th><Th>Members</Th><Th>Created</Th><Th className="text-right">Available balance</Th><Th><span className="sr-only">Actions</span></Th></tr>
          </thead>
          <tbody>
            {accounts.map((account) => (
              <tr key={account.id} data-testid="account-row" data-account-name={account.name}>
                <Td>
                  <p className="font-medium text-slate-900">{account.name}</p>
                  <p className="font-mono text-xs text-slate-400">{account.id}</p>
                </Td>
                <Td>{account.members}</Td>
                <Td><Time value={account.createdAt} /></Td>
                <Td className="text-right font-medium" data-testid="account-balance"><Money value={account.balance} currency={account.currency} /></Td>
                <Td className="text-right">
                  <Button size="sm" variant="secondary" onClick={() => { setFields(undefined); setCrediting(account); }} aria-label={`Credit ${account.name}`}>Credit</Button>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </Card>

      <Dialog open={crediting !== null} onRequestClose={() => setCrediting(null)} title={`Credit ${crediting?.name ?? ""}`} description="Adds to the available balance at once, as a ledger credit." testId="credit-dialog">
        {crediting && (
          <form onSubmit={submitHandler((form) => credit(crediting, form))} className="space-y-4">
            <Field id="credit-amount" label={`Amount (${crediting.currency})`} hint="Up to four decimals, e.g. 25.50" error={errorFor(fields, "amount")}>
              <Input id="credit-amount" name="amount" inputMode="decimal" required autoFocus invalid={!!errorFor(fields, "amount")} placeholder="25.00" />
            </Field>
            <Field id="credit-reason" label="Reason" hint="Shown in the account's ledger, e.g. “Invoice 2024-031 paid”." error={errorFor(fields, "reason")}>
              <Input id="credit-reason" name="reason" required maxLength={200} invalid={!!errorFor(fields, "reason")} />
            </Field>
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => setCrediting(null)}>Cancel</Button>
              <Button type="submit" disabled={busy}>{busy ? "Crediting…" : "Credit balance"}</Button>
            </div>
          </form>
        )}
      </Dialog>
    </div>
  );
}
