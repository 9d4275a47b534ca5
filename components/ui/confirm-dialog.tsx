"use client";

import { Button, type ButtonVariant } from "./button";
import { Dialog } from "./dialog";

/**
 * A question with nothing to fill in: Cancel, and one button that does it. `focus` picks the button
 * focused on opening: Cancel where the action cannot be undone and a stray Enter must not do it.
 */
export function ConfirmDialog({
  open,
  onClose,
  title,
  description,
  testId,
  confirmLabel,
  onConfirm,
  busy,
  variant = "danger",
  focus,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: React.ReactNode;
  testId: string;
  confirmLabel: React.ReactNode;
  onConfirm: () => void;
  busy: boolean;
  variant?: ButtonVariant;
  focus?: "cancel" | "confirm";
}) {
  return (
    <Dialog
      open={open}
      onRequestClose={onClose}
      title={title}
      description={description}
      testId={testId}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} data-autofocus={focus === "cancel" || undefined}>
            Cancel
          </Button>
          <Button
            variant={variant}
            disabled={busy}
            onClick={onConfirm}
            data-autofocus={focus === "confirm" || undefined}
            className="max-w-full truncate"
          >
            {confirmLabel}
          </Button>
        </>
      }
    />
  );
}
