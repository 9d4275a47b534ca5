"use client";

import { useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, submitHandler } from "@/components/ui/field";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { createKeyAction, type ShownKey } from "./actions";

/** Names a new key (live or test, the view's kind unless changed); the created key goes to the reveal-once dialog. */
export function CreateKeyDialog({
  open,
  onClose,
  onCreated,
  test,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (key: ShownKey) => void;
  /** The test data view is on: the key is a test key unless unchecked. */
  test: boolean;
}) {
  const [pending, startTransition] = useTransition();
  const errors = useFieldErrors();

  function create(form: FormData) {
    startTransition(async () => {
      const result = await createKeyAction({ name: String(form.get("name") ?? ""), test: form.get("test") === "on" });
      if (!errors.accepted(result)) return;
      onCreated(result.data);
    });
  }

  return (
    <Dialog
      open={open}
      onRequestClose={onClose}
      title="Create an API key"
      description="Name the key after where it will live, e.g. “production server”."
      testId="create-key-dialog"
    >
      <form id="create-key-form" onSubmit={submitHandler(create)} {...errors.formProps} className="space-y-4">
        <Field id="key-name" label="Name" error={errors.errorFor("name")}>
          <Input
            id="key-name"
            name="name"
            required
            maxLength={100}
            data-autofocus
            invalid={!!errors.errorFor("name")}
            placeholder="Production server"
          />
        </Field>
        <label className="flex items-start gap-3 rounded-lg border border-slate-200 p-3 text-sm">
          <input type="checkbox" name="test" defaultChecked={test} className="mt-0.5 h-4 w-4 accent-violet-600" />
          <span>
            <span className="font-medium text-slate-900">Test key</span>
            <span className="block text-slate-500">
              Messages are priced and simulated but never reach a carrier and never touch the balance. Listed with the test data on.
            </span>
          </span>
        </label>
      </form>
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" form="create-key-form" disabled={pending}>
          {pending ? "Creating…" : "Create key"}
        </Button>
      </div>
    </Dialog>
  );
}
