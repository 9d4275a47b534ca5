"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field, Input, Select, Textarea, errorFor, submitHandler } from "@/components/ui/field";
import { TabList } from "@/components/ui/tabs";
import { useToast } from "@/components/ui/toaster";
import { MessageCounter } from "@/components/message-counter";
import { Money } from "@/components/money";
import { Time, useBrowserTimeZone } from "@/components/time";
import { parseMsisdn } from "@/lib/messages/msisdn";
import { carrierName, durationWords } from "@/lib/messages/vocabulary";
import { MAX_SEGMENTS, segmentMessage } from "@/lib/messages/segments";
import type { RateTable } from "@/lib/dashboard/price-send";
import type { FieldError } from "@/lib/errors";
import { knowsTimeZone, readLocalTime } from "@/lib/model/time-zones";
import { sendSmsAction } from "./actions";
import { BulkRecipients, findOptedOut } from "./bulk-recipients";
import { deliveryFields, NO_DELIVERY_CHOICE, sendErrorText, type DeliveryChoice, type RecipientsProps } from "./compose-shared";

/** Validity choices, in seconds ("" = until the carrier takes it). */
const VALIDITY_CHOICES: Array<[string, string]> = [
  ["", "Until sent"],
  ...[300, 3600, 86_400, 604_800].map((seconds): [string, string] => [String(seconds), durationWords(seconds)]),
];

type Mode = "single" | "bulk";
const SEND_MODES = [
  { value: "single", label: "One recipient" },
  { value: "bulk", label: "Bulk send" },
] as const;

export type ComposeProps = {
  senders: string[];
  rates: RateTable;
  currency: string;
  available: string;
  initialMode: Mode;
  /** The account's time zone, in which a scheduled time is read. */
  timeZone: string;
};

export function ComposeView({ senders, rates, currency, available, initialMode, timeZone }: ComposeProps) {
  const [mode, setMode] = useState<Mode>(initialMode);
  const [from, setFrom] = useState(senders[0]);
  const [body, setBody] = useState("");
  const [fields, setFields] = useState<FieldError[] | undefined>();
  const [choice, setChoice] = useState<DeliveryChoice>(NO_DELIVERY_CHOICE);
  const delivery = deliveryFields(choice, timeZone);
  const browserTimeZone = useBrowserTimeZone();
  const segments = body ? segmentMessage(body).segments : 0;
  // Fields edited since the last send started: its answer may come after the edit, and its errors
  // on those fields are about values that are gone.
  const editedSinceSend = useRef(new Set<string>());
  /** A field's server error no longer applies once the field is edited. */
  const clearField = (name: string) => {
    editedSinceSend.current.add(name);
    setFields((current) => current?.filter((field) => field.field !== name));
  };
  const showFields = (next: FieldError[] | undefined) => setFields(next?.filter((field) => !editedSinceSend.current.has(field.field)));
  const startSend = () => {
    editedSinceSend.current.clear();
    setFields(undefined);
  };
  const recipients: RecipientsProps = {
    from,
    body,
    segments,
    rates,
    currency,
    available,
    fields,
    onFields: showFields,
    onClearField: clearField,
    onSendStart: startSend,
    onSent: () => setBody(""),
    delivery,
  };
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="space-y-6">
        <TabList label="Send to" tabs={SEND_MODES} selected={mode} onSelect={setMode} />
        <Card>
          <CardHeader title="Message" />
          <CardBody className="space-y-4">
            <Field id="compose-from" label="From (sender id)" error={errorFor(fields, "from")}>
              <Select id="compose-from" value={from} onChange={(event) => setFrom(event.target.value)} invalid={!!errorFor(fields, "from")}>
                {senders.map((sender) => (
                  <option key={sender} value={sender}>
                    {sender}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id="compose-message" label="Message" error={errorFor(fields, "message")}>
              <Textarea
                id="compose-message"
                rows={5}
                value={body}
                onChange={(event) => {
                  setBody(event.target.value);
                  clearField("message");
                }}
                placeholder="Your order has shipped…"
                invalid={!!errorFor(fields, "message")}
              />
            </Field>
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="Delivery" />
          <CardBody className="grid gap-4 sm:grid-cols-3">
            <Field id="compose-priority" label="Priority" error={errorFor(fields, "priority")}>
              <Select
                id="compose-priority"
                value={choice.priority}
                onChange={(event) => setChoice({ ...choice, priority: event.target.value === "high" ? "high" : "normal" })}
              >
                <option value="normal">Normal</option>
                <option value="high">High: ahead of queued messages</option>
              </Select>
            </Field>
            <Field
              id="compose-send-at"
              label="Send at"
              hint={<ScheduleHint typed={choice.sendAt} timeZone={timeZone} browserTimeZone={browserTimeZone} />}
              error={errorFor(fields, "send_at")}
            >
              <Input
                id="compose-send-at"
                type="datetime-local"
                value={choice.sendAt}
                onChange={(event) => {
                  setChoice({ ...choice, sendAt: event.target.value });
                  clearField("send_at");
                }}
                invalid={!!errorFor(fields, "send_at")}
              />
            </Field>
            <Field id="compose-validity" label="Give up after" error={errorFor(fields, "validity_period")}>
              <Select
                id="compose-validity"
                value={choice.validityPeriod}
                onChange={(event) => setChoice({ ...choice, validityPeriod: event.target.value })}
              >
                {VALIDITY_CHOICES.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </Select>
            </Field>
          </CardBody>
        </Card>
        {mode === "single" ? <SingleRecipient {...recipients} /> : <BulkRecipients {...recipients} />}
      </div>
      <aside className="space-y-4 lg:sticky lg:top-6 lg:self-start">
        <MessageCounter body={body} rates={rates} currency={currency} />
        <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <p className="text-xs text-slate-500">Available balance</p>
          <p className="mt-0.5 text-lg font-semibold text-slate-900">
            <Money value={available} currency={currency} testId="compose-available" />
          </p>
        </div>
      </aside>
    </div>
  );
}

/** The zone's wall clock at an instant, hours and minutes ("02:30"). */
function wallClock(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(instant);
}

/**
 * Which zone a scheduled time is read in, how a time the zone's clocks skip or repeat is read, and
 * the time in the reader's own zone when that differs.
 */
function ScheduleHint({ typed, timeZone, browserTimeZone }: { typed: string; timeZone: string; browserTimeZone: string | null }) {
  // Known on the server; a browser (read once hydrated) may not know a zone the server does.
  const zoneUnknown = browserTimeZone !== null && !knowsTimeZone(timeZone);
  const read = typed ? readLocalTime(typed, timeZone) : null;
  const inBrowserZone = read && browserTimeZone && browserTimeZone !== timeZone;
  const typedClock = typed.slice(11, 16);
  return (
    <>
      Empty: now. Times in <span data-testid="compose-time-zone">{timeZone}</span>, the account&apos;s time zone (Settings).
      {zoneUnknown && (
        <span className="block text-amber-700" data-testid="compose-zone-unknown">
          This browser does not know {timeZone}, so it cannot read a time in it: schedule from an up-to-date browser or over the API.
        </span>
      )}
      {read?.reading === "skipped" && (
        <span className="block" data-testid="compose-send-at-clock-change">
          {typedClock} does not exist in {timeZone} that day (the clocks go forward): it is read as {wallClock(read.instant, timeZone)}.
        </span>
      )}
      {read?.reading === "repeated" && (
        <span className="block" data-testid="compose-send-at-clock-change">
          {typedClock} happens twice in {timeZone} that day (the clocks go back): the first is used.
        </span>
      )}
      {inBrowserZone && (
        <span className="block" data-testid="compose-send-at-local">
          That is <Time value={read.instant.toISOString()} /> in your browser&apos;s zone ({browserTimeZone}).
        </span>
      )}
    </>
  );
}

function SingleRecipient({
  from,
  body,
  segments,
  rates,
  currency,
  available,
  fields,
  onFields,
  onClearField,
  onSendStart,
  delivery,
}: RecipientsProps) {
  const router = useRouter();
  const notify = useToast();
  const [pending, startTransition] = useTransition();
  const [to, setTo] = useState("");
  const [refusal, setRefusal] = useState<string | null>(null);
  const parsed = to.trim() ? parseMsisdn(to) : null;
  const cost = parsed?.ok ? BigInt(segments) * BigInt(rates[parsed.recipient.operator]) : null;
  const number = parsed?.ok ? parsed.recipient.to : null;
  // Which number was last checked against the opt-out list, and whether it is on it.
  const [optOutCheck, setOptOutCheck] = useState<{ number: string; optedOut: boolean } | null>(null);
  const optedOut = number !== null && optOutCheck?.number === number && optOutCheck.optedOut;

  useEffect(() => {
    if (!number) return;
    let current = true;
    findOptedOut([number]).then(
      (found) => current && setOptOutCheck({ number, optedOut: found.includes(number) }),
      () => undefined, // the send itself refuses an opted-out number anyway
    );
    return () => {
      current = false;
    };
  }, [number]);

  function send() {
    setRefusal(null);
    onSendStart();
    startTransition(async () => {
      const result = await sendSmsAction({ to, message: body, from, ...delivery });
      onFields(result.ok ? undefined : result.fields);
      if (!result.ok) {
        if (!result.fields || result.code === "INSUFFICIENT_BALANCE") setRefusal(sendErrorText(result));
        return;
      }
      notify("success", "Message accepted; follow it to the handset here");
      router.push(`/dashboard/messages/${result.data.id}`);
    });
  }

  return (
    <Card>
      <CardHeader title="Recipient" />
      <CardBody>
        <form onSubmit={submitHandler(send)} className="space-y-4">
          <Field
            id="compose-to"
            label="Phone number"
            hint="+263 77…, 0771…: Econet, NetOne or Telecel mobiles."
            error={errorFor(fields, "to") ?? (parsed && !parsed.ok ? parsed.reason : undefined)}
          >
            <div className="flex items-center gap-3">
              <Input
                id="compose-to"
                value={to}
                onChange={(event) => {
                  setTo(event.target.value);
                  onClearField("to");
                }}
                inputMode="tel"
                autoComplete="off"
                placeholder="+263 77 123 4567"
                invalid={!!errorFor(fields, "to") || (parsed !== null && !parsed.ok)}
              />
              {parsed?.ok && <Badge tone="blue">{carrierName(parsed.recipient.operator)}</Badge>}
            </div>
          </Field>
          {optedOut && (
            <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800" data-testid="single-opted-out">
              {number} is on your opt-out list: a send to it is refused and not charged. Remove it from Opt-outs to send to it again.
            </p>
          )}
          {refusal && (
            <p className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700" data-testid="send-error">
              {refusal}
            </p>
          )}
          <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-4">
            <p className="text-sm text-slate-500">
              {cost !== null && body ? (
                <>
                  This message costs{" "}
                  <Money value={cost} currency={currency} fourDecimals className="font-medium text-slate-900" testId="single-cost" />
                </>
              ) : (
                "Enter a number and a message to see the cost."
              )}
            </p>
            <Button type="submit" disabled={pending || segments > MAX_SEGMENTS || optedOut}>
              {pending ? "Sending…" : "Send message"}
            </Button>
          </div>
          {cost !== null && cost > BigInt(available) && (
            <p className="text-sm text-amber-700">This costs more than the available balance; the send will be refused.</p>
          )}
        </form>
      </CardBody>
    </Card>
  );
}
