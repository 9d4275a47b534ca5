"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field, Input, Textarea, submitHandler } from "@/components/ui/field";
import { useToast } from "@/components/ui/toaster";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { START_KEYWORDS, STOP_KEYWORDS } from "@/lib/opt-outs/keyword-lists";
import { saveOptOutSettingsAction } from "./actions";

export type KeywordSettings = { stopKeywords: string[]; startKeywords: string[]; confirm: boolean; stopReply: string; startReply: string };

/** The account's own opt-out keywords and its confirmation replies: owners change them, developers read them. */
export function KeywordsCard({
  settings,
  canEdit,
  hasApprovedSender,
}: {
  settings: KeywordSettings;
  canEdit: boolean;
  /** Without one, a confirmation has no sender id and is not sent (lib/opt-outs/confirmation-reply.ts). */
  hasApprovedSender: boolean;
}) {
  const router = useRouter();
  const notify = useToast();
  const [pending, startTransition] = useTransition();
  const errors = useFieldErrors();
  const [confirm, setConfirm] = useState(settings.confirm);

  function save(form: FormData) {
    startTransition(async () => {
      const result = await saveOptOutSettingsAction({
        stopKeywords: String(form.get("stop_keywords") ?? ""),
        startKeywords: String(form.get("start_keywords") ?? ""),
        confirm,
        stopReply: String(form.get("stop_reply") ?? ""),
        startReply: String(form.get("start_reply") ?? ""),
      });
      if (!errors.accepted(result)) return;
      notify("success", "Keywords and replies saved");
      router.refresh();
    });
  }

  return (
    <Card>
      <CardHeader
        title="Keywords and confirmation"
        description={`A reply to one of your numbers that is only a keyword changes the list: ${[...STOP_KEYWORDS].join(", ")} and your stop words add the sender; ${[...START_KEYWORDS].join(", ")} and your start words remove it. Case, spaces, punctuation and emoji around the word do not matter.`}
      />
      <CardBody>
        <form onSubmit={submitHandler(save)} {...errors.formProps} className="space-y-4" data-testid="opt-out-keywords-form">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              id="stop-keywords"
              label="Your stop words"
              hint="Letters and digits, 1-20 each, separated by spaces or commas, e.g. MIRA IMA"
              error={errors.errorFor("stop_keywords")}
            >
              <Input
                id="stop-keywords"
                name="stop_keywords"
                defaultValue={settings.stopKeywords.join(" ")}
                readOnly={!canEdit}
                autoComplete="off"
                invalid={!!errors.errorFor("stop_keywords")}
              />
            </Field>
            <Field id="start-keywords" label="Your start words" hint="e.g. TANGA" error={errors.errorFor("start_keywords")}>
              <Input
                id="start-keywords"
                name="start_keywords"
                defaultValue={settings.startKeywords.join(" ")}
                readOnly={!canEdit}
                autoComplete="off"
                invalid={!!errors.errorFor("start_keywords")}
              />
            </Field>
          </div>
          <label className="flex items-start gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              id="confirm-replies"
              className="mt-0.5 h-4 w-4"
              checked={confirm}
              disabled={!canEdit}
              onChange={(event) => setConfirm(event.target.checked)}
            />
            <span>
              Send a confirmation reply when a keyword changes the list
              <span className="block text-xs text-slate-500">
                Sent from the number the keyword came to when it is one of your approved sender ids, else from your first approved sender
                id; priced and charged like any message (test traffic for the Inbox sandbox), and listed under Messages. The stop
                confirmation is the only message that goes to a number on the list.
              </span>
            </span>
          </label>
          {confirm && !hasApprovedSender && (
            <p className="text-sm text-amber-800" role="status" data-testid="confirm-no-sender">
              Your account has no approved sender id yet, so no confirmation can be sent: request one under{" "}
              <Link href="/dashboard/senders" className="underline">
                Sender IDs
              </Link>
              .
            </p>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="stop-reply" label="Stop confirmation" hint="One SMS at most" error={errors.errorFor("stop_reply")}>
              <Textarea
                id="stop-reply"
                name="stop_reply"
                rows={3}
                defaultValue={settings.stopReply}
                readOnly={!canEdit}
                invalid={!!errors.errorFor("stop_reply")}
              />
            </Field>
            <Field id="start-reply" label="Start confirmation" hint="One SMS at most" error={errors.errorFor("start_reply")}>
              <Textarea
                id="start-reply"
                name="start_reply"
                rows={3}
                defaultValue={settings.startReply}
                readOnly={!canEdit}
                invalid={!!errors.errorFor("start_reply")}
              />
            </Field>
          </div>
          {canEdit ? (
            <Button type="submit" disabled={pending}>
              Save keywords and replies
            </Button>
          ) : (
            <p className="text-xs text-slate-500">Only the account&apos;s owners change these.</p>
          )}
        </form>
      </CardBody>
    </Card>
  );
}
