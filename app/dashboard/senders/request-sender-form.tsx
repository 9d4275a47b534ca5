"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input, Textarea, submitHandler } from "@/components/ui/field";
import { useToast } from "@/components/ui/toaster";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { SENDER_NAME_RULE } from "@/lib/senders/sender-name";
import { requestSenderAction } from "./actions";

export function RequestSenderForm() {
  const router = useRouter();
  const notify = useToast();
  const [pending, startTransition] = useTransition();
  const errors = useFieldErrors();
  const [value, setValue] = useState("");
  const [useCase, setUseCase] = useState("");
  function submit() {
    startTransition(async () => {
      const result = await requestSenderAction({ sender_id: value, use_case: useCase });
      if (!errors.accepted(result)) return;
      setValue("");
      setUseCase("");
      notify("success", `Sender id ${result.data.name} requested; an administrator will review it`);
      router.refresh();
    });
  }
  return (
    <form onSubmit={submitHandler(submit)} {...errors.formProps} className="space-y-4">
      <Field
        id="sender-id"
        label="Sender id"
        hint={`${SENDER_NAME_RULE[0].toUpperCase()}${SENDER_NAME_RULE.slice(1)}. One per name: ACME and acme are the same.`}
        error={errors.errorFor("sender_id")}
        className="w-full max-w-md"
      >
        <Input
          id="sender-id"
          name="sender_id"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          required
          maxLength={16}
          placeholder="ACME"
          invalid={!!errors.errorFor("sender_id")}
        />
      </Field>
      <Field
        id="sender-use-case"
        label="What you will send from it"
        hint="The reviewer reads this, e.g. “Order and delivery updates to our customers”."
        error={errors.errorFor("use_case")}
        className="w-full max-w-xl"
      >
        <Textarea
          id="sender-use-case"
          name="use_case"
          rows={2}
          value={useCase}
          onChange={(event) => setUseCase(event.target.value)}
          required
          maxLength={300}
          invalid={!!errors.errorFor("use_case")}
        />
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? "Requesting…" : "Request sender id"}
      </Button>
    </form>
  );
}
