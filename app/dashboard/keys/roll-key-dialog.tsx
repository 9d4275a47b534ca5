"use client";

import { useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Select, submitHandler } from "@/components/ui/field";
import { useToast } from "@/components/ui/toaster";
import type { KeyRow } from "@/lib/dashboard/list-key-rows";
import { rollKeyAction, type ShownKey } from "./actions";

const graceOptions = [
  { value: "now", label: "Revoke the old key now" },
  { value: "1h", label: "Keep the old key for 1 hour" },
  { value: "24h", label: "Keep the old key for 24 hours" },
  { value: "7d", label: "Keep the old key for 7 days" },
] as const;

/** Replaces a key, keeping the old one working for the chosen grace period; the replacement goes to the reveal-once dialog. */
export function RollKeyDialog({
  rolling,
  onClose,
  onRolled,
}: {
  rolling: KeyRow | null;
  onClose: () => void;
  onRolled: (key: ShownKey) => void;
}) {
  const notify = useToast();
  const [pending, startTransition] = useTransition();

  function roll(row: KeyRow, form: FormData) {
    startTransition(async () => {
      const result = await rollKeyAction({ id: row.id, grace: String(form.get("grace")) as (typeof graceOptions)[number]["value"] });
      onClose();
      if (!result.ok) notify("error", result.error);
      else onRolled(result.data);
    });
  }

  return (
    <Dialog
      open={rolling !== null}
      onRequestClose={onClose}
      title={`Roll “${rolling?.name ?? ""}”`}
      testId="roll-dialog"
      description="Creates a replacement key with the same name. The old key keeps working for the grace period you choose, so you can deploy the new one first."
    >
      {rolling && (
        <form onSubmit={submitHandler((form) => roll(rolling, form))} className="space-y-4">
          <Field id="roll-grace" label="Grace period for the old key">
            <Select id="roll-grace" name="grace" defaultValue="24h" data-autofocus>
              {graceOptions.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          </Field>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? "Rolling…" : "Roll key"}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
