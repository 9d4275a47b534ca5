"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input, Select, submitHandler } from "@/components/ui/field";
import { notifyOutcome, useToast } from "@/components/ui/toaster";
import { Time } from "@/components/time";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { carrierName } from "@/lib/messages/vocabulary";
import { assignNumberAction, releaseNumberAction } from "./number-actions";

export type NumberRowView = { id: string; number: string; accountName: string; operator: string | null; assignedAt: string };

export function InboundNumbersCard({ accounts, numbers }: { accounts: { id: string; name: string }[]; numbers: NumberRowView[] }) {
  const router = useRouter();
  const notify = useToast();
  const [busy, startTransition] = useTransition();
  const errors = useFieldErrors();

  function assign(form: FormData) {
    startTransition(async () => {
      const result = await assignNumberAction({
        accountId: String(form.get("accountId") ?? ""),
        number: String(form.get("number") ?? ""),
        operator: String(form.get("operator") ?? "") as "" | "econet" | "netone" | "telecel",
      });
      if (!errors.accepted(result)) return;
      notify("success", `${result.data.number} assigned`);
      router.refresh();
    });
  }

  function release(row: NumberRowView) {
    startTransition(async () => {
      const result = await releaseNumberAction({
        number: row.number,
        operator: (row.operator ?? "") as "" | "econet" | "netone" | "telecel",
      });
      notifyOutcome(notify, result, `${row.number} released from ${row.accountName}`);
      router.refresh();
    });
  }

  const columns: Column<NumberRowView>[] = [
    { key: "number", header: "Number", className: "font-mono", cell: (row) => row.number },
    { key: "account", header: "Account", className: "break-words", cell: (row) => row.accountName },
    { key: "carrier", header: "Carrier", cell: (row) => (row.operator ? carrierName(row.operator) : "All carriers") },
    { key: "assigned", header: "Assigned", nowrap: true, cell: (row) => <Time value={row.assignedAt} /> },
  ];

  return (
    <Card className="mt-6">
      <CardHeader
        title="Inbound numbers"
        description="Long numbers and short codes on which accounts receive messages, on one carrier or on all. Every change is audited."
      />
      <CardBody>
        <form
          onSubmit={submitHandler(assign)}
          {...errors.formProps}
          className="grid gap-3 sm:grid-cols-4 sm:items-end"
          data-testid="assign-number-form"
        >
          <Field id="number-account" label="Account" error={errors.errorFor("accountId")}>
            <Select id="number-account" name="accountId" defaultValue="" invalid={!!errors.errorFor("accountId")}>
              <option value="" disabled>
                Choose…
              </option>
              {accounts.map((account) => (
                <option key={account.id} value={account.id}>
                  {account.name}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="number-number" label="Number or short code" error={errors.errorFor("number")}>
            <Input
              id="number-number"
              name="number"
              placeholder="+263780000101 or 34567"
              className="font-mono"
              invalid={!!errors.errorFor("number")}
            />
          </Field>
          <Field id="number-operator" label="Carrier">
            <Select id="number-operator" name="operator" defaultValue="">
              <option value="">All carriers</option>
              <option value="econet">Econet</option>
              <option value="netone">NetOne</option>
              <option value="telecel">Telecel</option>
            </Select>
          </Field>
          <Button type="submit" disabled={busy}>
            Assign
          </Button>
        </form>
      </CardBody>
      <DataTable
        columns={columns}
        rows={numbers}
        rowKey={(row) => row.id}
        rowAttributes={() => ({ "data-testid": "number-row" })}
        actions={(row) => (
          <Button variant="secondary" size="sm" disabled={busy} onClick={() => release(row)}>
            Release
          </Button>
        )}
        empty={<EmptyState title="No inbound numbers" description="Assign one to let an account receive messages." />}
      />
    </Card>
  );
}
