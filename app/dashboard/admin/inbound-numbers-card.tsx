"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { notifyOutcome, useToast } from "@/components/ui/toaster";
import { Time } from "@/components/time";
import { carrierName } from "@/lib/messages/vocabulary";
import { operators } from "@/lib/model/operators";
import { releaseNumberAction } from "./number-actions";

export type NumberRowView = { id: string; number: string; accountName: string; operator: string | null; assignedAt: string };

const UNROUTED =
  "they are stored unrouted, for admins to read under Inbound, Unrouted messages; no webhook is sent for them, and a STOP among them changes no opt-out list";

function joinWords(words: string[]): string {
  return words.length < 2 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/**
 * What becomes of replies to the number once this assignment is released, routed as a carrier's
 * message is (lib/inbound): the carrier's own assignment first, then the all-carrier one, else none.
 */
function afterRelease(row: NumberRowView, numbers: NumberRowView[]): string {
  const others = numbers.filter((other) => other.number === row.number && other.id !== row.id);
  const kept = `Messages ${row.accountName} already received stay in its inbox.`;
  if (row.operator) {
    const carrier = carrierName(row.operator);
    const allCarriers = others.find((other) => other.operator === null);
    if (allCarriers)
      return `Replies to ${row.number} over ${carrier} then go to ${allCarriers.accountName}, which holds the number on all carriers. ${kept}`;
    return `Replies to ${row.number} over ${carrier} then reach no account: ${UNROUTED}. ${kept}`;
  }
  const held = others.filter((other) => other.operator !== null);
  const stillHeld = held.map((other) => `over ${carrierName(other.operator!)} to ${other.accountName}`);
  const unheld = operators.filter((operator) => !held.some((other) => other.operator === operator)).map(carrierName);
  return [
    stillHeld.length > 0 &&
      `Replies to ${row.number} still go ${joinWords(stillHeld)}, ${stillHeld.length === 1 ? "which holds it on that carrier" : "which hold it on those carriers"}.`,
    unheld.length > 0 && `Replies to ${row.number} over ${joinWords(unheld)} then reach no account: ${UNROUTED}.`,
    kept,
  ]
    .filter(Boolean)
    .join(" ");
}

export function InboundNumbersCard({ numbers }: { numbers: NumberRowView[] }) {
  const router = useRouter();
  const notify = useToast();
  const [busy, startTransition] = useTransition();
  const [releasing, setReleasing] = useState<NumberRowView | null>(null);

  function release(row: NumberRowView) {
    startTransition(async () => {
      const result = await releaseNumberAction({ id: row.id });
      setReleasing(null);
      notifyOutcome(notify, result, `${row.number} released from ${row.accountName}`);
      router.refresh();
    });
  }

  const columns: Column<NumberRowView>[] = [
    { key: "number", header: "Number", className: "font-mono", cell: (row) => row.number },
    { key: "account", header: "Account", className: "break-words", cell: (row) => row.accountName },
    { key: "carrier", header: "Carrier", cell: (row) => (row.operator ? carrierName(row.operator) : "All carriers") },
    { key: "assigned", header: "Assigned", nowrap: true, cell: (row) => <Time value={row.assignedAt} /> },
  ];

  return (
    <Card className="mt-6">
      <CardHeader
        title="Inbound numbers"
        description="Long numbers and short codes on which accounts receive messages, on one carrier or on all. Assign one from its account's row under Accounts. Every change is audited."
      />
      <DataTable
        columns={columns}
        rows={numbers}
        rowKey={(row) => row.id}
        rowAttributes={() => ({ "data-testid": "number-row" })}
        actions={(row) => (
          <Button
            variant="secondary"
            size="sm"
            disabled={busy}
            onClick={() => setReleasing(row)}
            aria-label={`Release ${row.number} (${row.operator ? carrierName(row.operator) : "all carriers"})`}
          >
            Release
          </Button>
        )}
        empty={
          <EmptyState
            title="No inbound numbers"
            description="Assign one from an account's row under Accounts to let it receive messages."
          />
        }
      />
      <ConfirmDialog
        open={releasing !== null}
        onClose={() => setReleasing(null)}
        title={
          releasing
            ? `Release ${releasing.number} ${releasing.operator ? `on ${carrierName(releasing.operator)}` : "on all carriers"} from ${releasing.accountName}?`
            : ""
        }
        testId="release-number-dialog"
        description={releasing ? afterRelease(releasing, numbers) : undefined}
        confirmLabel={busy ? "Releasing…" : "Release number"}
        onConfirm={() => releasing && release(releasing)}
        busy={busy}
        focus="cancel"
      />
    </Card>
  );
}
