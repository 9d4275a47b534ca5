"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input, Select, errorFor, submitHandler } from "@/components/ui/field";
import { Table, Td, Th } from "@/components/ui/table";
import { useToast } from "@/components/ui/toaster";
import { RelativeTime, Time } from "@/components/time";
import type { FieldError } from "@/lib/errors";
import { createKeyAction, revokeKeyAction, rollKeyAction, type ShownKey } from "./actions";

export type KeyRow = {
  id: string;
  name: string;
  prefix: string | null;
  mode: string;
  active: boolean;
  revokedAt: string | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
};

const graceOptions = [
  { value: "now", label: "Revoke the old key now" },
  { value: "1h", label: "Keep the old key for 1 hour" },
  { value: "24h", label: "Keep the old key for 24 hours" },
  { value: "7d", label: "Keep the old key for 7 days" },
] as const;

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

export function KeysView({ keys }: { keys: KeyRow[] }) {
  const router = useRouter();
  const notify = useToast();
  const [pending, startTransition] = useTransition();
  const [creating, setCreating] = useState(false);
  const [fields, setFields] = useState<FieldError[] | undefined>();
  const [shown, setShown] = useState<ShownKey | null>(null);
  const [confirmingClose, setConfirmingClose] = useState(false);
  const [revoking, setRevoking] = useState<KeyRow | null>(null);
  const [rolling, setRolling] = useState<KeyRow | null>(null);

  function create(form: FormData) {
    startTransition(async () => {
      const result = await createKeyAction({ name: String(form.get("name") ?? ""), test: form.get("test") === "on" });
      if (!result.ok) {
        setFields(result.fields);
        if (!result.fields) notify("error", result.error);
        return;
      }
      setCreating(false);
      setFields(undefined);
      setShown(result.data);
      router.refresh();
    });
  }

  function revoke(row: KeyRow) {
    startTransition(async () => {
      const result = await revokeKeyAction({ id: row.id });
      setRevoking(null);
      notify(result.ok ? "success" : "error", result.ok ? `Key "${row.name}" revoked` : result.error);
      router.refresh();
    });
  }

  function roll(row: KeyRow, form: FormData) {
    startTransition(async () => {
      const result = await rollKeyAction({ id: row.id, grace: String(form.get("grace")) as (typeof graceOptions)[number]["value"] });
      setRolling(null);
      if (!result.ok) {
        notify("error", result.error);
        return;
      }
      setShown(result.data);
      router.refresh();
    });
  }

  function closeShown() {
    setConfirmingClose(false);
    setShown(null);
  }

  return (
    <>
      <Card>
        <CardHeader
          title="Keys"
          description="Live keys send real messages and spend the balance. Test keys are priced and simulated, never charged."
          actions={<Button onClick={() => setCreating(true)}>Create key</Button>}
        />
        {keys.length === 0 ? (
          <EmptyState
            title="No API keys yet"
            description="Create your first key to call the API: POST /api/v1/sms with Authorization: Bearer <key>."
            action={<Button onClick={() => setCreating(true)}>Create your first key</Button>}
          />
        ) : (
          <Table>
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Key</Th>
                <Th>Status</Th>
                <Th>Created</Th>
                <Th>Last used</Th>
                <Th className="text-right">
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {keys.map((row) => (
                <tr key={row.id} data-testid="key-row" data-key-name={row.name} className={row.active ? undefined : "bg-slate-50/60"}>
                  <Td>
                    <div className="flex items-center gap-2 font-medium text-slate-900">
                      {row.name}
                      {row.mode === "test" && <Badge tone="violet">Test</Badge>}
                    </div>
                  </Td>
                  <Td>
                    <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">{row.prefix ? `${row.prefix}…` : "(no prefix recorded)"}</code>
                  </Td>
                  <Td>
                    <KeyStatus row={row} />
                  </Td>
                  <Td>
                    <Time value={row.createdAt} />
                  </Td>
                  <Td>
                    <RelativeTime value={row.lastUsedAt} />
                  </Td>
                  <Td className="text-right">
                    {row.active && (
                      <div className="flex justify-end gap-2">
                        <Button variant="secondary" size="sm" onClick={() => setRolling(row)} aria-label={`Roll ${row.name}`}>Roll</Button>
                        <Button variant="ghost" size="sm" className="text-red-600 hover:bg-red-50 hover:text-red-700" onClick={() => setRevoking(row)} aria-label={`Revoke ${row.name}`}>
                          Revoke
                        </Button>
                      </div>
                    )}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>

      <Dialog open={creating} onRequestClose={() => setCreating(false)} title="Create an API key" description="Name the key after where it will live, e.g. “production server”." testId="create-key-dialog">
        <form id="create-key-form" onSubmit={submitHandler(create)} className="space-y-4">
          <Field id="key-name" label="Name" error={errorFor(fields, "name")}>
            <Input id="key-name" name="name" required maxLength={100} autoFocus invalid={!!errorFor(fields, "name")} placeholder="Production server" />
          </Field>
          <label className="flex items-start gap-3 rounded-lg border border-slate-200 p-3 text-sm">
            <input type="checkbox" name="test" className="mt-0.5 h-4 w-4 accent-violet-600" />
            <span>
              <span className="font-medium text-slate-900">Test key</span>
              <span className="block text-slate-500">Messages are priced and simulated but never reach a carrier and never touch the balance.</span>
            </span>
          </label>
        </form>
        <div className="mt-5 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setCreating(false)}>Cancel</Button>
          <Button type="submit" form="create-key-form" disabled={pending}>{pending ? "Creating…" : "Create key"}</Button>
        </div>
      </Dialog>

      <Dialog
        open={shown !== null}
        onRequestClose={() => setConfirmingClose(true)}
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
              <Input id="new-key-token" readOnly value={shown.token} className="font-mono text-xs" onFocus={(event) => event.currentTarget.select()} data-testid="new-key-token" aria-label="API key" />
              <CopyButton text={shown.token} targetId="new-key-token" />
            </div>
            {confirmingClose ? (
              <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-slate-50 px-4 py-3" data-testid="confirm-close">
                <p className="text-sm text-slate-700">Have you copied the key? It cannot be shown again.</p>
                <div className="flex gap-2">
                  <Button variant="secondary" size="sm" onClick={() => setConfirmingClose(false)}>Go back</Button>
                  <Button variant="danger" size="sm" onClick={closeShown}>Close, I copied it</Button>
                </div>
              </div>
            ) : (
              <div className="flex justify-end">
                <Button onClick={() => setConfirmingClose(true)}>Done</Button>
              </div>
            )}
          </div>
        )}
      </Dialog>

      <Dialog open={revoking !== null} onRequestClose={() => setRevoking(null)} title={`Revoke “${revoking?.name ?? ""}”?`} testId="revoke-dialog"
        description="Requests with this key will be refused (401) immediately. Revoked keys stay listed and cannot be reactivated."
        footer={
          <>
            <Button variant="secondary" onClick={() => setRevoking(null)}>Cancel</Button>
            <Button variant="danger" disabled={pending} onClick={() => revoking && revoke(revoking)}>Revoke {revoking?.name}</Button>
          </>
        }
      />

      <Dialog open={rolling !== null} onRequestClose={() => setRolling(null)} title={`Roll “${rolling?.name ?? ""}”`} testId="roll-dialog"
        description="Creates a replacement key with the same name. The old key keeps working for the grace period you choose, so you can deploy the new one first.">
        {rolling && (
          <form onSubmit={submitHandler((form) => roll(rolling, form))} className="space-y-4">
            <Field id="roll-grace" label="Grace period for the old key">
              <Select id="roll-grace" name="grace" defaultValue="24h">
                {graceOptions.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
              </Select>
            </Field>
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => setRolling(null)}>Cancel</Button>
              <Button type="submit" disabled={pending}>{pending ? "Rolling…" : "Roll key"}</Button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
