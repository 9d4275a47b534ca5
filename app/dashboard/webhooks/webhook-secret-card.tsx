"use client";

import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Input } from "@/components/ui/field";
import { useToast } from "@/components/ui/toaster";
import { revealWebhookSecretAction, rotateWebhookSecretAction } from "./actions";

const MASK = "whsec_••••••••••••••••••••••••••••••••";

export function WebhookSecretCard({ canManage }: { canManage: boolean }) {
  const notify = useToast();
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [pending, startTransition] = useTransition();

  function reveal() {
    startTransition(async () => {
      const result = await revealWebhookSecretAction({});
      if (result.ok) setSecret(result.data.secret);
      else notify("error", result.error);
    });
  }

  function rotate() {
    startTransition(async () => {
      const result = await rotateWebhookSecretAction({});
      setConfirming(false);
      if (!result.ok) {
        notify("error", result.error);
        return;
      }
      setSecret(result.data.secret);
      notify("success", "Signing secret rotated; the old one no longer signs");
    });
  }

  return (
    <Card>
      <CardHeader
        title="Per-send signing secret"
        description="Requests to a send's webhook_url carry webhook-id, webhook-timestamp and webhook-signature headers (Standard Webhooks). Verify the signature with this secret; each endpoint above has its own."
      />
      <CardBody className="space-y-4">
        <div className="flex flex-wrap gap-2">
          <Input
            id="webhook-secret"
            readOnly
            value={secret ?? MASK}
            className="max-w-md flex-1 font-mono text-xs"
            aria-label="Webhook signing secret"
            data-testid="webhook-secret"
          />
          {secret && <CopyButton text={secret} targetId="webhook-secret" />}
          {canManage && !secret && (
            <Button variant="secondary" onClick={reveal} disabled={pending}>
              Reveal
            </Button>
          )}
          {canManage && (
            <Button variant="danger" onClick={() => setConfirming(true)} disabled={pending}>
              Rotate
            </Button>
          )}
        </div>
        {!canManage && <p className="text-sm text-slate-500">Only account owners can reveal or rotate the secret.</p>}
      </CardBody>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Rotate the signing secret?"
        testId="rotate-secret-dialog"
        description="A new secret signs every webhook from now on, including retries of pending ones. Update your receiver at once: signatures made with the old secret stop."
        confirmLabel="Rotate secret"
        onConfirm={rotate}
        busy={pending}
      />
    </Card>
  );
}
