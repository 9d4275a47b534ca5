"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Select, submitHandler } from "@/components/ui/field";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { notifyOutcome, useToast } from "@/components/ui/toaster";
import { Time } from "@/components/time";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { addMemberAction, changeMemberRoleAction, removeMemberAction } from "./actions";

export type MemberRow = { id: string; email: string; role: string; createdAt: string };

function columns(currentUserId: string): Column<MemberRow>[] {
  return [
    {
      key: "email",
      header: "Email",
      // Wide enough on a phone that an address breaks into a few readable lines, not one per syllable.
      className: "min-w-44 font-medium text-slate-900",
      cell: (member) => (
        <>
          {member.email}
          {member.id === currentUserId && <span className="ml-2 text-xs font-normal text-slate-400">(you)</span>}
        </>
      ),
    },
    {
      key: "role",
      header: "Role",
      nowrap: true,
      cell: (member) => <Badge tone={member.role === "owner" ? "blue" : "gray"}>{member.role === "owner" ? "Owner" : "Developer"}</Badge>,
    },
    { key: "added", header: "Added", nowrap: true, cell: (member) => <Time value={member.createdAt} /> },
  ];
}

export function MembersView({ members, currentUserId }: { members: MemberRow[]; currentUserId: string }) {
  const router = useRouter();
  const notify = useToast();
  const [pending, startTransition] = useTransition();
  const [adding, setAdding] = useState(false);
  const errors = useFieldErrors();
  const [added, setAdded] = useState<{ email: string; password: string } | null>(null);
  const [removing, setRemoving] = useState<MemberRow | null>(null);
  const [changingRole, setChangingRole] = useState<MemberRow | null>(null);

  function add(form: FormData) {
    startTransition(async () => {
      const result = await addMemberAction({
        email: String(form.get("email") ?? ""),
        role: String(form.get("role")) as "owner" | "developer",
      });
      if (!errors.accepted(result)) return;
      setAdding(false);
      setAdded({ email: result.data.email, password: result.data.password });
      router.refresh();
    });
  }

  function changeRole(member: MemberRow) {
    const role = member.role === "owner" ? "developer" : "owner";
    startTransition(async () => {
      const result = await changeMemberRoleAction({ id: member.id, role });
      setChangingRole(null);
      notify(
        result.ok ? "success" : "error",
        result.ok ? `${member.email} is now ${role === "owner" ? "an owner" : "a developer"}; their sessions have ended` : result.error,
      );
      router.refresh();
    });
  }

  function remove(member: MemberRow) {
    startTransition(async () => {
      const result = await removeMemberAction({ id: member.id });
      setRemoving(null);
      notifyOutcome(notify, result, `${member.email} removed; their sessions have ended`);
      router.refresh();
    });
  }

  return (
    <>
      <Card>
        <CardHeader
          title="Members"
          description="Owners manage everything, including members. Developers manage keys, send and read messages."
          actions={<Button onClick={() => setAdding(true)}>Add member</Button>}
        />
        <DataTable
          columns={columns(currentUserId)}
          rows={members}
          rowKey={(member) => member.id}
          rowAttributes={() => ({ "data-testid": "member-row" })}
          actions={(member) =>
            member.id !== currentUserId && (
              <>
                <Button variant="ghost" size="sm" onClick={() => setChangingRole(member)} aria-label={`Change the role of ${member.email}`}>
                  {member.role === "owner" ? "Make developer" : "Make owner"}
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-red-600 hover:bg-red-50"
                  onClick={() => setRemoving(member)}
                  aria-label={`Remove ${member.email}`}
                >
                  Remove
                </Button>
              </>
            )
          }
          empty={
            <EmptyState
              icon="users"
              title="No members"
              description="Add an owner or a developer; they sign in with a first password shown to you once."
            />
          }
        />
      </Card>

      <Dialog
        open={adding}
        onRequestClose={() => setAdding(false)}
        title="Add a member"
        description="They sign in with the email and a first password shown to you once."
        testId="add-member-dialog"
      >
        <form id="add-member-form" onSubmit={submitHandler(add)} {...errors.formProps} className="space-y-4">
          <Field id="member-email" label="Email" error={errors.errorFor("email")}>
            <Input id="member-email" name="email" type="email" required data-autofocus invalid={!!errors.errorFor("email")} />
          </Field>
          <Field id="member-role" label="Role" error={errors.errorFor("role")}>
            <Select id="member-role" name="role" defaultValue="developer">
              <option value="developer">Developer: keys, sends and messages</option>
              <option value="owner">Owner: everything, including members</option>
            </Select>
          </Field>
        </form>
        <div className="mt-5 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setAdding(false)}>
            Cancel
          </Button>
          <Button type="submit" form="add-member-form" disabled={pending}>
            {pending ? "Adding…" : "Add member"}
          </Button>
        </div>
      </Dialog>

      <Dialog
        open={added !== null}
        onRequestClose={() => setAdded(null)}
        title={`${added?.email ?? ""} can sign in`}
        testId="member-added-dialog"
        footer={<Button onClick={() => setAdded(null)}>Done</Button>}
      >
        {added && (
          <div className="space-y-3">
            <p className="text-sm text-slate-600">Pass on this first password securely. It is shown only now.</p>
            <div className="flex gap-2">
              <Input
                id="member-password"
                readOnly
                value={added.password}
                className="min-w-0 font-mono"
                aria-label="First password"
                data-testid="member-password"
              />
              <CopyButton text={added.password} targetId="member-password" autoFocus />
            </div>
          </div>
        )}
      </Dialog>

      <ConfirmDialog
        open={changingRole !== null}
        onClose={() => setChangingRole(null)}
        title={`Make ${changingRole?.email ?? ""} ${changingRole?.role === "owner" ? "a developer" : "an owner"}?`}
        testId="change-role-dialog"
        description={
          changingRole?.role === "owner"
            ? "They keep keys, sends and messages, and lose members and settings. Every session they have open ends: they sign in again."
            : "They can then manage everything, including members. Every session they have open ends: they sign in again."
        }
        confirmLabel="Change role"
        onConfirm={() => changingRole && changeRole(changingRole)}
        busy={pending}
        variant="primary"
      />

      <ConfirmDialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={`Remove ${removing?.email ?? ""}?`}
        testId="remove-member-dialog"
        description="They lose access at once: every session they have open stops working. API keys they created belong to the account and keep working: revoke those under API keys."
        confirmLabel="Remove member"
        onConfirm={() => removing && remove(removing)}
        busy={pending}
      />
    </>
  );
}
