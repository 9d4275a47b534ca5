"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Select, submitHandler } from "@/components/ui/field";
import { useToast } from "@/components/ui/toaster";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { operators, type Operator } from "@/lib/carriers/operators";
import { carrierName } from "@/lib/messages/vocabulary";
import { assignNumberAction } from "./number-actions";

/** Assigns an inbound number to the account whose row it was opened from (null: closed). */
export function AssignNumberDialog({ account, onClose }: { account: { id: string; name: string } | null; onClose: () => void }) {
  const router = useRouter();
  const notify = useToast();
  const [busy, startTransition] = useTransition();
  const errors = useFieldErrors();

  function close() {
    errors.setFields(undefined);
    onClose();
  }

  function assign(accountId: string, form: FormData) {
    startTransition(async () => {
      const result = await assignNumberAction({
        accountId,
        number: String(form.get("number") ?? ""),
        operator: String(form.get("operator") ?? "") as Operator | "",
      });
      if (!errors.accepted(result)) return;
      close();
      notify("success", `${result.data.number} assigned to ${account?.name ?? ""}`);
      router.refresh();
    });
  }

  return (
    <Dialog
      open={account !== null}
      onRequestClose={close}
      title={`Assign a number to ${account?.name ?? ""}`}
      description="Replies to the number, on the carrier chosen or on all, reach this account's inbox and webhooks."
      testId="assign-number-dialog"
    >
      {account && (
        <form
          onSubmit={submitHandler((form) => assign(account.id, form))}
          {...errors.formProps}
          className="space-y-4"
          data-testid="assign-number-form"
        >
          <Field id="number-number" label="Number or short code" error={errors.errorFor("number")}>
            <Input
              id="number-number"
              name="number"
              data-autofocus
              placeholder="+263780000101 or 34567"
              className="font-mono"
              invalid={!!errors.errorFor("number")}
            />
          </Field>
          <Field id="number-operator" label="Carrier">
            <Select id="number-operator" name="operator" defaultValue="">
              <option value="">All carriers</option>
              {operators.map((operator) => (
                <option key={operator} value={operator}>
                  {carrierName(operator)}
                </option>
              ))}
            </Select>
          </Field>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? "Assigning…" : "Assign"}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
