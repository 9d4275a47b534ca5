// Sends never go to a number on the account's opt-out list (lib/opt-outs). The message store reads
// which recipients are on it with the account, in the round trip or transaction that already prices
// the send (docs/decisions/0015-opt-outs-in-the-send.md); this is the rule applied to what it read.
// Numbers are compared in E.164, as both sides store them.
import { AppError, type FieldError } from "@/lib/errors";
import type { OptedOutRecipient } from "@/lib/model/sends";
import type { Recipient } from "./msisdn";

export type { OptedOutRecipient } from "@/lib/model/sends";

const MAX_LISTED = 100;

function optedOutError(fields: FieldError[], description: string): AppError {
  return new AppError("RECIPIENT_OPTED_OUT", "Recipient opted out", { description, fields });
}

/**
 * The send's recipients less the opted-out ones. A single send to an opted-out number, or a bulk send
 * whose every recipient opted out, is refused whole (RECIPIENT_OPTED_OUT naming `to` or `to[i]`).
 */
export function withoutOptedOut(
  recipients: Recipient[],
  optedOut: ReadonlySet<string> | undefined,
  bulk: boolean,
): { recipients: Recipient[]; optedOut: OptedOutRecipient[] } | AppError {
  if (!optedOut || optedOut.size === 0) return { recipients, optedOut: [] };
  const kept: Recipient[] = [];
  const skipped: OptedOutRecipient[] = [];
  recipients.forEach((recipient, index) => {
    if (optedOut.has(recipient.to)) skipped.push({ index, to: recipient.to });
    else kept.push(recipient);
  });
  if (skipped.length === 0) return { recipients, optedOut: [] };
  if (!bulk) {
    const [{ to }] = skipped;
    return optedOutError(
      [{ field: "to", description: `${to} is on this account's opt-out list` }],
      `${to} has opted out of this account's messages; nothing was sent or charged`,
    );
  }
  if (kept.length === 0) {
    const fields = skipped
      .slice(0, MAX_LISTED)
      .map(({ index, to }) => ({ field: `to[${index}]`, description: `${to} is on this account's opt-out list` }));
    return optedOutError(fields, "Every recipient has opted out of this account's messages; nothing was sent or charged");
  }
  return { recipients: kept, optedOut: skipped };
}
