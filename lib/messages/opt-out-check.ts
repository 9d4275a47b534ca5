// Sends never go to a number on the account's opt-out list (lib/opt-outs). The list is read in the
// round trip or transaction that already prices the send (docs/decisions/0015-opt-outs-in-the-send.md):
// no cache, so an opt-out committed by any process is honoured by the next send, and an account with
// an empty list pays no round trip of its own. Numbers are compared in E.164, as both sides store them.
import { AppError, type FieldError } from "@/lib/errors";
import type { SqlExecutor } from "@/lib/db/sql";
import { inList } from "@/lib/db/batch-lists";
import type { Recipient } from "./msisdn";

/** A bulk send's recipient that was not sent: its position in the request and its number. */
export type OptedOutRecipient = { index: number; to: string };

const MAX_LISTED = 100;
const LOOKUP_CHUNK = 4096;

/** In readAccounts' row: whether the account has any opt-out (an index probe, no extra round trip). */
export const HAS_OPT_OUTS_COLUMN = `EXISTS (SELECT 1 FROM "OptOut" o WHERE o."accountId" = "Account"."id") AS "hasOptOuts"`;

/** Which of these numbers are on the account's list: one indexed lookup per 4,096 numbers. */
export async function readOptedOut(executor: SqlExecutor, accountId: string, numbers: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const unique = [...new Set(numbers)];
  for (let start = 0; start < unique.length; start += LOOKUP_CHUNK) {
    const list = inList(unique.slice(start, start + LOOKUP_CHUNK));
    const rows = await executor.all<{ number: string }>(
      `SELECT "number" FROM "OptOut" WHERE "accountId" = ? AND "number" IN ${list.text}`,
      [accountId, ...list.params],
      { prepared: true },
    );
    for (const row of rows) found.add(row.number);
  }
  return found;
}

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
