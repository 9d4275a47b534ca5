"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime, Time } from "@/components/time";
import type { KeyRow } from "@/lib/dashboard/list-key-rows";
import type { ShownKey } from "./actions";
import { CreateKeyDialog } from "./create-key-dialog";
import type { ViewMode } from "@/lib/dashboard/view-mode";
import { NewKeyDialog } from "./new-key-dialog";
import { RevokeKeyDialog } from "./revoke-key-dialog";
import { RollKeyDialog } from "./roll-key-dialog";

function KeyStatus({ row }: { row: KeyRow }) {
  if (!row.active) return <Badge tone="red">Revoked</Badge>;
  if (row.expiresAt) {
    return (
      <Badge tone="amber">
        Expires <Time value={row.expiresAt} />
      </Badge>
    );
  }
  return <Badge tone="green">Active</Badge>;
}

function KeyStatusCell({ row }: { row: KeyRow }) {
  return (
    <div className="flex flex-col items-start gap-1 font-normal">
      <KeyStatus row={row} />
      {row.successorId && (
        <a href={`#key-${row.successorId}`} className="text-xs text-brand-700 hover:underline" data-testid="key-successor">
          Replaced by the newer key
        </a>
      )}
    </div>
  );
}

const columns: Column<KeyRow>[] = [
  {
    key: "name",
    header: "Name",
    className: "min-w-40",
    cell: (row) => (
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium text-slate-900">
        <span className="wrap-anywhere" data-testid="key-name">
          {row.name}
        </span>
        {row.mode === "test" && <Badge tone="violet">Test</Badge>}
        <div className="w-full sm:hidden">
          <KeyStatusCell row={row} />
        </div>
      </div>
    ),
  },
  {
    key: "prefix",
    header: "Key",
    nowrap: true,
    cell: (row) => (
      <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700" data-testid="key-prefix">
        {row.prefix ? `${row.prefix}…` : "(no prefix recorded)"}
      </code>
    ),
  },
  // On a phone the pinned actions column covers the columns after the name: the status shows under the name there.
  { key: "status", header: "Status", className: "max-sm:hidden", cell: (row) => <KeyStatusCell row={row} /> },
  { key: "createdBy", header: "Created by", cell: (row) => <span data-testid="key-created-by">{row.createdBy}</span> },
  { key: "created", header: "Created", nowrap: true, cell: (row) => <Time value={row.createdAt} /> },
  { key: "lastUsed", header: "Last used", nowrap: true, cell: (row) => <RelativeTime value={row.lastUsedAt} /> },
];

export function KeysView({ keys, mode }: { keys: KeyRow[]; mode: ViewMode }) {
  const router = useRouter();
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<ShownKey | null>(null);
  const [revoking, setRevoking] = useState<KeyRow | null>(null);
  const [rolling, setRolling] = useState<KeyRow | null>(null);

  function reveal(key: ShownKey) {
    setCreating(false);
    setShown(key);
    router.refresh();
  }

  return (
    <>
      <Card>
        <CardHeader
          title="Keys"
          description="Live keys send real messages and spend the balance. Test keys are priced and simulated, never charged."
          actions={<Button onClick={() => setCreating(true)}>Create key</Button>}
        />
        <DataTable
          columns={columns}
          rows={keys}
          rowKey={(row) => row.id}
          rowAttributes={(row) => ({
            "data-testid": "key-row",
            "data-key-name": row.name,
            id: `key-${row.id}`,
            className: row.active ? undefined : "bg-slate-50/60",
          })}
          actions={(row) =>
            row.active && (
              <>
                {/* A rolled key in its grace period has its replacement: that is the one to roll. */}
                {!row.expiresAt && (
                  <Button variant="secondary" size="sm" onClick={() => setRolling(row)} aria-label={`Roll ${row.name}`}>
                    Roll
                  </Button>
                )}
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-red-600 hover:bg-red-50 hover:text-red-700"
                  onClick={() => setRevoking(row)}
                  aria-label={`Revoke ${row.name}`}
                >
                  Revoke
                </Button>
              </>
            )
          }
          empty={
            <EmptyState
              icon="key"
              title={mode === "test" ? "No test keys yet" : "No API keys yet"}
              description="Create your first key to call the API: POST /api/v1/sms with Authorization: Bearer <key>."
              action={<Button onClick={() => setCreating(true)}>Create your first key</Button>}
            />
          }
        />
      </Card>
      <CreateKeyDialog open={creating} onClose={() => setCreating(false)} onCreated={reveal} test={mode === "test"} />
      <NewKeyDialog shown={shown} onClose={() => setShown(null)} />
      <RevokeKeyDialog revoking={revoking} onClose={() => setRevoking(null)} />
      <RollKeyDialog rolling={rolling} onClose={() => setRolling(null)} onRolled={reveal} />
    </>
  );
}
