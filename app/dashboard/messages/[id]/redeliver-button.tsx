"use client";

import { useTransition } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { notifyOutcome, useToast } from "@/components/ui/toaster";
import { redeliverWebhookAction } from "./actions";

export function RedeliverButton({ deliveryId }: { deliveryId: string }) {
  const notify = useToast();
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  return (
    <Button
      variant="secondary"
      size="sm"
      disabled={pending}
      onClick={() =>
        startTransition(async () => {
          const result = await redeliverWebhookAction({ deliveryId });
          notifyOutcome(notify, result, "Webhook queued for redelivery");
          await queryClient.invalidateQueries({ queryKey: ["message"] });
        })
      }
    >
      {pending ? "Queuing…" : "Redeliver"}
    </Button>
  );
}
