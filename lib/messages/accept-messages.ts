// THE way a message enters Tumira: the API's single and bulk sends and the dashboard's compose all
// call acceptMessages. Exports:
//   acceptMessages(input: AcceptMessagesInput): Promise<AcceptedSend>
//   type AcceptMessagesInput, AcceptedSend, AcceptedMessage (from ./commit-sends), MAX_BULK_RECIPIENTS
// It validates everything a caller can get wrong (all field errors at once, VALIDATION_ERROR naming
// `to` / `to[i]`, `message`, `from`, `webhook_url`), vets the webhook URL's addresses (unless
// WEBHOOK_ALLOW_PRIVATE), then commits:
// the sender must be an approved sender id of the account (else BAD_REQUEST naming `from`), each
// recipient is priced (segments × the carrier's rate for the account), and in one transaction the
// charge is held (live keys only; all-or-nothing, else INSUFFICIENT_BALANCE and nothing is written)
// and the messages are stored `enqueued`. Single sends are group-committed with concurrent ones.
// Recipients on the account's opt-out list are refused (single send: RECIPIENT_OPTED_OUT naming `to`)
// or skipped and listed in `optedOut` (bulk), read in the commit's own account read (./opt-out-check.ts).
import { AppError, type FieldError } from "@/lib/errors";
import { isStorableText, NOT_TEXT_DESCRIPTION } from "@/lib/text";
import { getEnv } from "@/lib/env";
import type { KeyMode } from "@/lib/keys/token";
import { checkWebhookUrl, parseWebhookUrl } from "@/lib/webhooks/check-webhook-url";
import { MAX_SEGMENTS, segmentMessage } from "./segments";
import { parseMsisdn, type Recipient } from "./msisdn";
import { commitSends, type AcceptedSend, type IdempotencyRecord, type PreparedSend } from "./commit-sends";
import { createGroupCommit } from "@/lib/db/group-commit";
import { getStores } from "@/lib/db/stores";
import type { DeliveryControl, Priority } from "@/lib/model/sends";
import { parseRfc3339 } from "@/lib/model/rfc3339";

export type { AcceptedMessage, AcceptedSend } from "./commit-sends";

export const MAX_BULK_RECIPIENTS = 100_000;
/** Recipient errors listed in one response; the rest are counted, not listed. */
const MAX_LISTED_RECIPIENT_ERRORS = 100;
/** Concurrent single sends committed in one transaction at most. */
const MAX_SINGLE_SENDS_PER_COMMIT = 512;
/** A longer body cannot fit MAX_SEGMENTS parts in either encoding (10 × 153 GSM-7 septets). */
const MAX_BODY_LENGTH = MAX_SEGMENTS * 153;

export type AcceptMessagesInput = {
  accountId: string;
  /** Sender id name as the client wrote it; must be approved on the account. */
  from: string;
  body: string;
  /** Recipients as the client wrote them (any form parseMsisdn accepts). Duplicates are each sent. */
  recipients: readonly string[];
  webhookUrl?: string | null;
  /** "key:<id>" or "user:<id>", recorded on the ledger. */
  actor: string;
  apiKeyId?: string | null;
  userId?: string | null;
  /** test: priced and stored with test=true, never held against the balance. */
  mode: KeyMode;
  /** single: one recipient, errors name `to`; bulk: a BulkSend row, errors name `to[i]`. */
  kind: "single" | "bulk";
  /** The request's Idempotency-Key: its record is written with the send, or not at all. */
  idempotency?: IdempotencyRecord | null;
  /** "high" goes before every normal message queued for the same carrier. */
  priority?: Priority | null;
  /** RFC 3339 time, now (or up to SEND_AT_LEEWAY_MS before) to MAX_SCHEDULE_DAYS ahead: the messages wait as created until then. */
  sendAt?: string | null;
  /** Seconds (MIN_VALIDITY_SECONDS..MAX_VALIDITY_SECONDS) the messages may wait for a carrier. */
  validityPeriod?: number | null;
  /** The confirmation of an opt-out (lib/opt-outs/confirmation-reply.ts): the one send to a number on the list. */
  optOutConfirmation?: boolean;
};

export const MAX_SCHEDULE_DAYS = 35;
/**
 * A send_at this far behind the server's clock still counts as now: a client's "now" has passed by
 * the time its request arrives, and a client's clock may run a little behind.
 */
export const SEND_AT_LEEWAY_MS = 60_000;
export const MIN_VALIDITY_SECONDS = 60;
export const MAX_VALIDITY_SECONDS = 7 * 24 * 3600;
const commitSingleSend = createGroupCommit<PreparedSend, AcceptedSend>(
  commitSends,
  MAX_SINGLE_SENDS_PER_COMMIT,
  () => getStores().messages.concurrentSendBatches,
);

export async function acceptMessages(input: AcceptMessagesInput): Promise<AcceptedSend> {
  const send = prepareSend(input);
  // Where private addresses are allowed (development, tests) there is nothing to vet before delivery.
  if (send.webhookUrl && !getEnv().WEBHOOK_ALLOW_PRIVATE) await checkWebhookUrl(send.webhookUrl);
  if (input.kind === "single") return commitSingleSend(send);
  const [result] = await commitSends([send]);
  if (result instanceof Error) throw result;
  return result;
}

function prepareSend(input: AcceptMessagesInput): PreparedSend {
  const fields: FieldError[] = [];
  const senderName = input.from.trim();
  if (!senderName) fields.push({ field: "from", description: "cannot be blank" });
  else if (!isStorableText(senderName)) fields.push({ field: "from", description: NOT_TEXT_DESCRIPTION });

  const body = checkBody(input.body, fields);
  const recipients = checkRecipients(input.recipients, input.kind, fields);

  let webhookUrl: string | null = null;
  if (input.webhookUrl != null) {
    try {
      webhookUrl = parseWebhookUrl(input.webhookUrl).href;
    } catch (error) {
      fields.push(...((error as AppError).options.fields ?? []));
    }
  }

  const control = checkDeliveryControl(input, fields);

  if (fields.length > 0) throw AppError.validation(fields);
  return {
    control,
    accountId: input.accountId,
    senderName,
    body: input.body,
    encoding: body!.encoding,
    segments: body!.segments,
    recipients,
    webhookUrl,
    actor: input.actor,
    apiKeyId: input.apiKeyId ?? null,
    userId: input.userId ?? null,
    test: input.mode === "test",
    bulk: input.kind === "bulk",
    idempotency: input.idempotency ?? null,
    optOutConfirmation: input.optOutConfirmation === true && input.kind === "single",
  };
}

function checkBody(body: string, fields: FieldError[]) {
  if (!body.trim()) {
    fields.push({ field: "message", description: "cannot be blank" });
    return undefined;
  }
  if (!isStorableText(body)) {
    fields.push({ field: "message", description: NOT_TEXT_DESCRIPTION });
    return undefined;
  }
  const tooLong = `is too long: at most ${MAX_SEGMENTS} parts (${MAX_SEGMENTS * 153} GSM-7 characters, or ${MAX_SEGMENTS * 67} in UCS-2)`;
  if (body.length > MAX_BODY_LENGTH) {
    fields.push({ field: "message", description: tooLong });
    return undefined;
  }
  const segmented = segmentMessage(body);
  if (segmented.segments > MAX_SEGMENTS) {
    fields.push({ field: "message", description: `${tooLong}; this one needs ${segmented.segments} parts` });
    return undefined;
  }
  return segmented;
}

function checkRecipients(raw: readonly string[], kind: AcceptMessagesInput["kind"], fields: FieldError[]): Recipient[] {
  if (raw.length === 0) {
    fields.push({ field: "to", description: "must contain at least one recipient" });
    return [];
  }
  if (kind === "single" && raw.length > 1) {
    fields.push({ field: "to", description: "must be one recipient; use the bulk send for several" });
    return [];
  }
  if (raw.length > MAX_BULK_RECIPIENTS) {
    fields.push({ field: "to", description: `must contain at most ${MAX_BULK_RECIPIENTS} recipients (got ${raw.length})` });
    return [];
  }
  const recipients: Recipient[] = [];
  let invalid = 0;
  raw.forEach((text, index) => {
    const parsed = parseMsisdn(text);
    if (parsed.ok) {
      recipients.push(parsed.recipient);
      return;
    }
    invalid++;
    if (invalid <= MAX_LISTED_RECIPIENT_ERRORS) {
      fields.push({ field: kind === "single" ? "to" : `to[${index}]`, description: parsed.reason });
    }
  });
  if (invalid > MAX_LISTED_RECIPIENT_ERRORS) {
    fields.push({ field: "to", description: `${invalid} recipients are invalid; the first ${MAX_LISTED_RECIPIENT_ERRORS} are listed` });
  }
  return recipients;
}

function checkDeliveryControl(input: AcceptMessagesInput, fields: FieldError[]): DeliveryControl {
  const priority = input.priority ?? "normal";
  if (priority !== "normal" && priority !== "high") fields.push({ field: "priority", description: 'must be "normal" or "high"' });
  let sendAt: Date | null = null;
  if (input.sendAt != null) {
    const parsed = parseRfc3339(input.sendAt);
    const now = Date.now();
    if (!parsed || Number.isNaN(parsed.getTime())) {
      fields.push({ field: "send_at", description: "must be an RFC 3339 date-time with a time zone, e.g. 2030-01-31T09:00:00Z" });
    } else if (parsed.getTime() < now - SEND_AT_LEEWAY_MS) {
      fields.push({ field: "send_at", description: "must not be in the past" });
    } else if (parsed.getTime() > now + MAX_SCHEDULE_DAYS * 24 * 3600 * 1000) {
      fields.push({ field: "send_at", description: `must be at most ${MAX_SCHEDULE_DAYS} days ahead` });
    } else sendAt = new Date(Math.max(parsed.getTime(), now));
  }
  const validityPeriod = input.validityPeriod ?? null;
  if (
    validityPeriod !== null &&
    (!Number.isInteger(validityPeriod) || validityPeriod < MIN_VALIDITY_SECONDS || validityPeriod > MAX_VALIDITY_SECONDS)
  ) {
    fields.push({
      field: "validity_period",
      description: `must be a whole number of seconds from ${MIN_VALIDITY_SECONDS} to ${MAX_VALIDITY_SECONDS} (7 days)`,
    });
  }
  return { priority: priority === "high" ? "high" : "normal", sendAt, validityPeriod };
}
