"use client";

import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input, submitHandler } from "@/components/ui/field";
import { useToast } from "@/components/ui/toaster";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { changePasswordAction } from "./actions";

export function ChangePasswordForm() {
  const notify = useToast();
  // Remounted empty after a change: nothing typed stays on the page.
  const [formKey, setFormKey] = useState(0);
  const [pending, startTransition] = useTransition();
  const errors = useFieldErrors();

  function change(data: FormData) {
    startTransition(async () => {
      const result = await changePasswordAction({
        currentPassword: String(data.get("currentPassword") ?? ""),
        newPassword: String(data.get("newPassword") ?? ""),
        confirmPassword: String(data.get("confirmPassword") ?? ""),
      });
      if (!errors.accepted(result)) return;
      setFormKey((key) => key + 1);
      const others = result.data.endedSessions;
      notify(
        "success",
        `Password changed. ${others === 0 ? "You were signed in nowhere else." : `Signed out of ${others} other session${others === 1 ? "" : "s"}.`}`,
      );
    });
  }

  return (
    <form key={formKey} onSubmit={submitHandler(change)} {...errors.formProps} className="space-y-4" data-testid="change-password-form">
      <Field id="current-password" label="Current password" error={errors.errorFor("currentPassword")}>
        <Input
          id="current-password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          invalid={!!errors.errorFor("currentPassword")}
        />
      </Field>
      <Field id="new-password" label="New password" hint="At least 10 characters." error={errors.errorFor("newPassword")}>
        <Input
          id="new-password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          invalid={!!errors.errorFor("newPassword")}
        />
      </Field>
      <Field id="confirm-password" label="New password again" error={errors.errorFor("confirmPassword")}>
        <Input
          id="confirm-password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          invalid={!!errors.errorFor("confirmPassword")}
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
