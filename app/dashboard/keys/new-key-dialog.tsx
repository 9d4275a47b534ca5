"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/field";
import type { ShownKey } from "./actions";

/**
 * A new key's secret, shown once. Closing without having pressed Copy asks first, and the question
 * takes the focus so a keyboard user hears it.
 */
export function NewKeyDialog({ shown, onClose }: { shown: ShownKey | null; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const [confirmingClose, setConfirmingClose] = useState(false);
  const goBack = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirmingClose) goBack.current?.focus();
  }, [confirmingClose]);

  function close() {
    setCopied(false);
    setConfirmingClose(false);
    onClose();
  }

  function requestClose() {
    if (copied) close();
    else setConfirmingClose(true);
  }

  return (
    <Dialog
      open={shown !== null}
      onRequestClose={requestClose}
      title={`Your new key “${shown?.name ?? ""}”`}
      testId="new-key-dialog"
      size="lg"
    >
      {shown && (
        <div className="space-y-4">
          <div className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="key-warning">
            <p className="font-semibold">Copy this key now. You will not see it again.</p>
            <p className="mt-0.5">Tumira keeps only a hash of it. If you lose it, roll or revoke it and create a new one.</p>
          </div>
          <div className="flex gap-2">
            <Input
              id="new-key-token"
              readOnly
              value={shown.token}
              className="min-w-0 font-mono text-xs"
              onFocus={(event) => event.currentTarget.select()}
              data-testid="new-key-token"
              aria-label="API key"
            />
            <CopyButton text={shown.token} targetId="new-key-token" autoFocus onCopied={() => setCopied(true)} />
          </div>
          {confirmingClose ? (
            <div
              role="alertdialog"
              aria-labelledby="confirm-close-text"
              className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-slate-50 px-4 py-3"
              data-testid="confirm-close"
            >
              <p id="confirm-close-text" className="text-sm text-slate-700">
                Have you copied the key? It cannot be shown again.
              </p>
              <div className="flex gap-2">
                <Button ref={goBack} variant="secondary" size="sm" onClick={() => setConfirmingClose(false)}>
                  Go back
                </Button>
                <Button variant="danger" size="sm" onClick={close}>
                  Close, I copied it
                </Button>
              </div>
            </div>
          ) : (
            <div className="flex justify-end">
              <Button onClick={requestClose}>Done</Button>
            </div>
          )}
        </div>
      )}
    </Dialog>
  );
}
