"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field, Select, submitHandler } from "@/components/ui/field";
import { useToast } from "@/components/ui/toaster";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { setTimeZoneAction } from "./actions";

/** The account's time zone: owners change it, developers read it. */
export function TimeZoneCard({ timeZone, zones, canEdit }: { timeZone: string; zones: string[]; canEdit: boolean }) {
  const router = useRouter();
  const notify = useToast();
  const [pending, startTransition] = useTransition();
  const errors = useFieldErrors();
  const [chosen, setChosen] = useState(timeZone);

  function save() {
    startTransition(async () => {
      const result = await setTimeZoneAction({ time_zone: chosen });
      if (!errors.accepted(result)) return;
      notify("success", `Time zone set to ${result.data.timeZone}`);
      router.refresh();
    });
  }

  return (
    <Card className="max-w-xl">
      <CardHeader
        title="Time zone"
        description="Compose reads a scheduled send's time in this zone, for everyone in the account. Times elsewhere on the dashboard read in each reader's browser zone."
      />
      <CardBody>
        <form onSubmit={submitHandler(save)} {...errors.formProps} className="space-y-4" data-testid="time-zone-form">
          <Field id="time-zone" label="Account time zone" error={errors.errorFor("time_zone")}>
            <Select
              id="time-zone"
              name="time_zone"
              value={chosen}
              disabled={!canEdit}
              onChange={(event) => setChosen(event.target.value)}
              invalid={!!errors.errorFor("time_zone")}
            >
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </Select>
          </Field>
          {canEdit ? (
            <Button type="submit" disabled={pending || chosen === timeZone}>
              Save time zone
            </Button>
          ) : (
            <p className="text-xs text-slate-500">Only the account&apos;s owners change it.</p>
          )}
        </form>
      </CardBody>
    </Card>
  );
}
