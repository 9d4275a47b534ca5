"use client";

import { useState } from "react";
import type { ActionResult } from "@/lib/dashboard/define-action";
import type { FieldError } from "@/lib/errors";
import { errorFor } from "./field";
import { useToast } from "./toaster";

/**
 * The field errors of one form, shown under their fields. A field's error clears as soon as the field
 * is edited, and every error clears when the browser's own validation stops the next submit (the
 * submit handler never runs then), so no answer to an earlier submit stays under a field.
 * Spread `formProps` on the <form>; an error's field is the `name` of its control.
 */
export type FieldErrors = ReturnType<typeof useFieldErrors>;

export function useFieldErrors() {
  const notify = useToast();
  const [fields, setFields] = useState<FieldError[] | undefined>();
  return {
    setFields,
    errorFor: (name: string) => errorFor(fields, name),
    /** Shows a refused result's errors under their fields (in a toast when it names none) and clears them on success. */
    accepted<T>(result: ActionResult<T>): result is { ok: true; data: T } {
      setFields(result.ok ? undefined : result.fields);
      if (!result.ok && !result.fields) notify("error", result.error);
      return result.ok;
    },
    formProps: {
      onInput: (event: React.FormEvent<HTMLFormElement>) => {
        const name = (event.target as Partial<HTMLInputElement>).name;
        if (name) setFields((current) => current?.filter((field) => field.field !== name));
      },
      onInvalidCapture: () => setFields(undefined),
    },
  };
}
