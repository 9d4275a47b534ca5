"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input, Select, Textarea, errorFor, submitHandler } from "@/components/ui/field";
import { useToast } from "@/components/ui/toaster";
import type { FieldError } from "@/lib/errors";
import { simulateReplyAction } from "./actions";

/** The sandbox: the SMSC simulator sends a message to one of the account's numbers, as a carrier would deliver it. */
export function SimulateReplyForm({ numbers }: { numbers: string[] }) {
  const router = useRouter();
  const notify = useToast();
  const [pending, startTransition] = useTransition();
  const [fields, setFields] = useState<FieldError[] | undefined>();
  const [from, setFrom] = useState("");
  const [to, setTo] = useState(numbers[0] ?? "");
  const [message, setMessage] = useState("");

  function submit() {
    startTransition(async () => {
      const result = await simulateReplyAction({ from, to, message });
      setFields(result.ok ? undefined : result.fields);
      if (!result.ok) {
        if (!result.fields) notify("error", result.error);
        return;
      }
      setMessage("");
      notify("success", `The simulator is sending it from ${result.data.from}; it shows here in a moment`);
      // The simulator's deliver_sm is stored within about a second.
      setTimeout(() => router.refresh(), 1500);
    });
  }

  return (
    <form onSubmit={submitHandler(submit)} className="space-y-3" data-testid="simulate-reply-form">
      <Field id="simulate-from" label="From (a handset)" error={errorFor(fields, "from")}>
        <Input
          id="simulate-from"
          value={from}
          onChange={(event) => setFrom(event.target.value)}
          placeholder="0771234567"
          className="font-mono"
          invalid={!!errorFor(fields, "from")}
        />
      </Field>
      <Field id="simulate-to" label="To" error={errorFor(fields, "to")}>
        <Select id="simulate-to" value={to} onChange={(event) => setTo(event.target.value)}>
          {[...new Set(numbers)].map((number) => (
            <option key={number} value={number}>
              {number}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="simulate-message" label="Message" error={errorFor(fields, "message")}>
        <Textarea
          id="simulate-message"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          rows={2}
          invalid={!!errorFor(fields, "message")}
        />
      </Field>
      <Button type="submit" disabled={pending}>
        Simulate a reply
      </Button>
    </form>
  );
}
