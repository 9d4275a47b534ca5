"use client";

import { useTransition } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { notifyOutcome, useToast } from "@/components/ui/toaster";
import { cancelMessageAction } from "./actions";

/** Cancels a message no carrier has yet: it fails as CANCELLED and its charge is released. */
export function CancelButton({ id, test }: { id: string; test: boolean }) {
  const notify = useToast();
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  return (
    <Button
      variant="secondary"
      size="sm"
      disabled={pending}
      data-testid="cancel-message"
      onClick={() =>
        startTransition(async () => {
          const result = await cancelMessageAction({ id, test });
          notifyOutcome(notify, result, "Message cancelled; its charge is released");
          await queryClient.invalidateQueries({ queryKey: ["messages"] });
        })
      }
    >
      {pending ? "Cancelling…" : "Cancel"}
    </Button>
  );
}
