// The confirmation reply to an opt-out keyword (when the account turned it on). It goes through the
// normal send path, so it is priced, held and charged like any message and appears in the message
// list: test traffic when the keyword came through the sandbox, live otherwise. Its sender id is the
// number the keyword was sent to when that number is an approved sender id of the account, else the
// account's first approved sender id; an account with none gets no reply. The stop confirmation is
// the one message that goes to a number on the list: it answers the opt-out itself.
import { sql } from "@/lib/db/client";
import { parseRows } from "@/lib/db/stores/shared/rows";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { acceptMessages } from "@/lib/messages/accept-messages";
import { senderNameKey } from "@/lib/senders/sender-name";

/** The actor of the reply's message and ledger rows. */
export const CONFIRMATION_ACTOR = "system:opt-out-confirmation";

/** The sender id of a reply from this inbound number: the number itself if approved, else the first approved one. */
async function replySenderFor(accountId: string, inboundNumber: string): Promise<string | null> {
  const keys = [senderNameKey(inboundNumber), senderNameKey(inboundNumber.replace(/^\+/, ""))];
  const rows = parseRows(
    await sql().all(
      `SELECT "name", "nameKey" FROM "SenderId" WHERE "accountId" = ? AND "status" = 'approved' ORDER BY COALESCE("approvedAt", "createdAt"), "createdAt", "name"`,
      [accountId],
    ),
    { name: "text", nameKey: "text" },
  );
  return (rows.find((row) => keys.includes(row.nameKey)) ?? rows[0])?.name ?? null;
}

export async function sendConfirmationReply(input: {
  accountId: string;
  to: string;
  inboundNumber: string;
  optOut: boolean;
  body: string;
  test: boolean;
}): Promise<string | null> {
  const from = await replySenderFor(input.accountId, input.inboundNumber);
  if (!from) {
    logger.warn({ accountId: input.accountId }, "opt-out confirmation not sent: the account has no approved sender id");
    return null;
  }
  try {
    const accepted = await acceptMessages({
      accountId: input.accountId,
      from,
      body: input.body,
      recipients: [input.to],
      actor: CONFIRMATION_ACTOR,
      mode: input.test ? "test" : "live",
      kind: "single",
      optOutConfirmation: input.optOut,
    });
    return accepted.messages[0]?.id ?? null;
  } catch (error) {
    // No balance for it, or the number opted out again before a START's reply: the change stands.
    if (error instanceof AppError) {
      logger.warn({ accountId: input.accountId, code: error.code }, "opt-out confirmation not sent");
      return null;
    }
    throw error;
  }
}
