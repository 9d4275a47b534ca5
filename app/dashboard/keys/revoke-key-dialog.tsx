"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { notifyOutcome, useToast } from "@/components/ui/toaster";
import type { KeyRow } from "@/lib/dashboard/list-key-rows";
import { revokeKeyAction } from "./actions";

/** Asks before revoking, naming the key; a revoked key is refused at once and stays listed. */
export function RevokeKeyDialog({ revoking, onClose }: { revoking: KeyRow | null; onClose: () => void }) {
  const router = useRouter();
  const notify = useToast();
  const [pending, startTransition] = useTransition();

  function revoke(row: KeyRow) {
    startTransition(async () => {
      const result = await revokeKeyAction({ id: row.id });
      onClose();
      notifyOutcome(notify, result, `Key "${row.name}" revoked`);
      router.refresh();
    });
  }

  return (
    <ConfirmDialog
      open={revoking !== null}
      onClose={onClose}
      title={`Revoke “${revoking?.name ?? ""}”?`}
      testId="revoke-dialog"
      description="Requests with this key will be refused (401) immediately. Revoked keys stay listed and cannot be reactivated."
      confirmLabel={`Revoke ${revoking?.name ?? ""}`}
      onConfirm={() => revoking && revoke(revoking)}
      busy={pending}
      focus="cancel"
    />
  );
}
