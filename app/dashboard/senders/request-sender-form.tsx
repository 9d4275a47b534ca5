"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input, errorFor, submitHandler } from "@/components/ui/field";
import { useToast } from "@/components/ui/toaster";
import type { FieldError } from "@/lib/errors";
import { requestSenderAction } from "./actions";

export function RequestSenderForm() {
  const router = useRouter();
  const notify = useToast();
  const [pending, startTransition] = useTransition();
  const [fields, setFields] = useState<FieldError[] | undefined>();
  const [value, setValue] = useState("");
  function submit() {
    startTransition(async () => {
      const result = await requestSenderAction({ sender_id: value });
      setFields(result.ok ? undefined : result.fields);
      if (!result.ok) {
        if (!result.fields) notify("error", result.error);
        return;
      }
      setValue("");
      notify("success", `Sender id ${result.data.name} requested; an administrator will review it`);
      router.refresh();
    });
  }
  return (
    <form onSubmit={submitHandler(submit)} className="flex flex-wrap items-start gap-3">
      <Field
        id="sender-id"
        label="Sender id"
        hint="1-11 letters or digits, or a phone number of up to 15 digits."
        error={errorFor(fields, "sender_id")}
        className="w-full max-w-xs"
      >
        <Input
          id="sender-id"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          required
          maxLength={16}
          placeholder="ACME"
          invalid={!!errorFor(fields, "sender_id")}
        />
      </Field>
      <Button type="submit" disabled={pending} className="mt-6">
        {pending ? "Requesting…" : "Request sender id"}
      </Button>
    </form>
  );
}
