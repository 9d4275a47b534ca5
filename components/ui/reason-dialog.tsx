"use client";

import { Button } from "./button";
import { Dialog } from "./dialog";
import { Field, Input, submitHandler } from "./field";
import type { FieldErrors } from "./use-field-errors";

/** A refusal that needs a reason the other side will read: the reason, Cancel, and the refusing button. */
export function ReasonDialog({
  open,
  onClose,
  title,
  description,
  testId,
  fieldId,
  reason,
  onReasonChange,
  errors,
  busy,
  confirmLabel,
  onConfirm,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description: string;
  testId: string;
  fieldId: string;
  reason: string;
  onReasonChange: (reason: string) => void;
  /** The form's errors: the reason's is shown under it, as field "reason". */
  errors: FieldErrors;
  busy: boolean;
  confirmLabel: string;
  onConfirm: () => void;
}) {
  return (
    <Dialog open={open} onRequestClose={onClose} title={title} description={description} testId={testId}>
      {open && (
        <form onSubmit={submitHandler(onConfirm)} {...errors.formProps} className="space-y-4">
          <Field id={fieldId} label="Reason" error={errors.errorFor("reason")}>
            <Input
              id={fieldId}
              name="reason"
              required
              autoFocus
              maxLength={300}
              value={reason}
              onChange={(event) => onReasonChange(event.target.value)}
              invalid={!!errors.errorFor("reason")}
            />
          </Field>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" disabled={busy}>
              {confirmLabel}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
