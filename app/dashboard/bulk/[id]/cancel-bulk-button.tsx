"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useToast } from "@/components/ui/toaster";
import { cancelBulkSendAction } from "./actions";

const messages = (count: number) => `${count.toLocaleString("en")} ${count === 1 ? "message" : "messages"}`;

/** Cancels every message of the bulk send no carrier has yet, once confirmed with their number. */
export function CancelBulkButton({ bulkSendId, test, waiting }: { bulkSendId: string; test: boolean; waiting: number }) {
  const router = useRouter();
  const notify = useToast();
  const [confirming, setConfirming] = useState(false);
  const [pending, startTransition] = useTransition();

  function cancelTheRest() {
    startTransition(async () => {
      const result = await cancelBulkSendAction({ bulkSendId, test });
      setConfirming(false);
      if (result.ok) {
        const { cancelled, notCancelled } = result.data;
        notify("success", `${messages(cancelled)} cancelled; ${messages(notCancelled)} already with a carrier or final, not cancelled`);
      } else notify("error", result.error);
      router.refresh();
    });
  }

  return (
    <>
      <Button variant="secondary" disabled={pending} data-testid="cancel-bulk" onClick={() => setConfirming(true)}>
        Cancel the rest
      </Button>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={`Cancel ${messages(waiting)}?`}
        testId="cancel-bulk-dialog"
        description={`The ${messages(waiting)} of this bulk send no carrier has yet will not be sent: each fails as CANCELLED and its charge is released back to the balance. Messages a carrier already has, or may have, are not affected. This cannot be undone.`}
        confirmLabel={`Cancel ${messages(waiting)}`}
        onConfirm={cancelTheRest}
        busy={pending}
        focus="cancel"
      />
    </>
  );
}
