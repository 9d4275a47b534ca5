"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input, Textarea, errorFor, submitHandler } from "@/components/ui/field";
import { useToast } from "@/components/ui/toaster";
import type { FieldError } from "@/lib/errors";
import { SENDER_NAME_RULE } from "@/lib/senders/sender-name";
import { requestSenderAction } from "./actions";

export function RequestSenderForm() {
  const router = useRouter();
  const notify = useToast();
  const [pending, startTransition] = useTransition();
  const [fields, setFields] = useState<FieldError[] | undefined>();
  const [value, setValue] = useState("");
  const [useCase, setUseCase] = useState("");
  function submit() {
    startTransition(async () => {
      const result = await requestSenderAction({ sender_id: value, use_case: useCase });
      setFields(result.ok ? undefined : result.fields);
      if (!result.ok) {
        if (!result.fields) notify("error", result.error);
        return;
      }
      setValue("");
      setUseCase("");
      notify("success", `Sender id ${result.data.name} requested; an administrator will review it`);
      router.refresh();
    });
  }
  return (
    <form onSubmit={submitHandler(submit)} className="space-y-4">
      <Field
        id="sender-id"
        label="Sender id"
        hint={`${SENDER_NAME_RULE[0].toUpperCase()}${SENDER_NAME_RULE.slice(1)}. One per name: ACME and acme are the same.`}
        error={errorFor(fields, "sender_id")}
        className="w-full max-w-md"
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
      <Field
        id="sender-use-case"
        label="What you will send from it"
        hint="The reviewer reads this, e.g. “Order and delivery updates to our customers”."
        error={errorFor(fields, "use_case")}
        className="w-full max-w-xl"
      >
        <Textarea
          id="sender-use-case"
          rows={2}
          value={useCase}
          onChange={(event) => setUseCase(event.target.value)}
          required
          maxLength={300}
          invalid={!!errorFor(fields, "use_case")}
        />
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? "Requesting…" : "Request sender id"}
      </Button>
    </form>
  );
}
