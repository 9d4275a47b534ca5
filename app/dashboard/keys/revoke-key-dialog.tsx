"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { useToast } from "@/components/ui/toaster";
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
      notify(result.ok ? "success" : "error", result.ok ? `Key "${row.name}" revoked` : result.error);
      router.refresh();
    });
  }

  return (
    <Dialog
      open={revoking !== null}
      onRequestClose={onClose}
      title={`Revoke “${revoking?.name ?? ""}”?`}
      testId="revoke-dialog"
      description="Requests with this key will be refused (401) immediately. Revoked keys stay listed and cannot be reactivated."
      footer={
        <>
          <Button variant="secondary" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button variant="danger" disabled={pending} onClick={() => revoking && revoke(revoking)} className="max-w-full truncate">
            Revoke {revoking?.name}
          </Button>
        </>
      }
    />
  );
}
