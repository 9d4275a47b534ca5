"use client";

import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input, errorFor, submitHandler } from "@/components/ui/field";
import { useToast } from "@/components/ui/toaster";
import type { FieldError } from "@/lib/errors";
import { changePasswordAction } from "./actions";

export function ChangePasswordForm() {
  const notify = useToast();
  // Remounted empty after a change: nothing typed stays on the page.
  const [formKey, setFormKey] = useState(0);
  const [pending, startTransition] = useTransition();
  const [fields, setFields] = useState<FieldError[] | undefined>();

  function change(data: FormData) {
    startTransition(async () => {
      const result = await changePasswordAction({
        currentPassword: String(data.get("currentPassword") ?? ""),
        newPassword: String(data.get("newPassword") ?? ""),
        confirmPassword: String(data.get("confirmPassword") ?? ""),
      });
      setFields(result.ok ? undefined : result.fields);
      if (!result.ok) {
        if (!result.fields) notify("error", result.error);
        return;
      }
      setFormKey((key) => key + 1);
      const others = result.data.endedSessions;
      notify(
        "success",
        `Password changed. ${others === 0 ? "You were signed in nowhere else." : `Signed out of ${others} other session${others === 1 ? "" : "s"}.`}`,
      );
    });
  }

  return (
    <form key={formKey} onSubmit={submitHandler(change)} className="space-y-4" data-testid="change-password-form">
      <Field id="current-password" label="Current password" error={errorFor(fields, "currentPassword")}>
        <Input
          id="current-password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          invalid={!!errorFor(fields, "currentPassword")}
        />
      </Field>
      <Field id="new-password" label="New password" hint="At least 10 characters." error={errorFor(fields, "newPassword")}>
        <Input
          id="new-password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          invalid={!!errorFor(fields, "newPassword")}
        />
      </Field>
      <Field id="confirm-password" label="New password again" error={errorFor(fields, "confirmPassword")}>
        <Input
          id="confirm-password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          invalid={!!errorFor(fields, "confirmPassword")}
        />
      </Field>
      <div className="flex justify-end">
        <Button type="submit" disabled={pending}>
          {pending ? "Changing…" : "Change password"}
        </Button>
      </div>
    </form>
  );
}
