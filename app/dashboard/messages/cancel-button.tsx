"use client";

import { useState, useTransition } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { notifyOutcome, useToast } from "@/components/ui/toaster";
import { cancelMessageAction } from "./actions";

/** Cancels a message no carrier has yet, once confirmed: it fails as CANCELLED and its charge is released. */
export function CancelButton({ id, test }: { id: string; test: boolean }) {
  const notify = useToast();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [pending, startTransition] = useTransition();
  return (
    <>
      <Button variant="secondary" size="sm" disabled={pending} data-testid="cancel-message" onClick={() => setConfirming(true)}>
        {pending ? "Cancelling…" : "Cancel"}
      </Button>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Cancel this message?"
        testId="cancel-message-dialog"
        description="It will not be sent: it fails as CANCELLED and its charge is released back to the balance. This cannot be undone."
        confirmLabel="Cancel message"
        onConfirm={() =>
          startTransition(async () => {
            const result = await cancelMessageAction({ id, test });
            setConfirming(false);
            notifyOutcome(notify, result, "Message cancelled; its charge is released");
            // The lists and the message's own page alike show its new state.
            await Promise.all([
              queryClient.invalidateQueries({ queryKey: ["messages"] }),
              queryClient.invalidateQueries({ queryKey: ["message", id] }),
            ]);
          })
        }
        busy={pending}
        focus="cancel"
      />
    </>
  );
}
