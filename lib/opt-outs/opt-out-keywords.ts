// Opt-out keywords in inbound messages: a reply of STOP (and its synonyms) to one of the account's
// numbers puts the sender on the account's opt-out list, START takes it off. Only a whole message
// that is the keyword counts: "please stop sending" is a conversation, not a request.
import { logger } from "@/lib/log";
import { AppError } from "@/lib/errors";
import { addOptOut, removeOptOut } from "./opt-outs";

export const STOP_KEYWORDS: ReadonlySet<string> = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"]);
export const START_KEYWORDS: ReadonlySet<string> = new Set(["START", "UNSTOP"]);

/** The keyword a message's text is, ignoring case, surrounding spaces and punctuation; null when it is none. */
export function optOutKeywordOf(text: string): { keyword: string; optOut: boolean } | null {
  const word = text
    .trim()
    .replace(/^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu, "")
    .toUpperCase();
  if (STOP_KEYWORDS.has(word)) return { keyword: word, optOut: true };
  if (START_KEYWORDS.has(word)) return { keyword: word, optOut: false };
  return null;
}

/** Applies a keyword an inbound message carries to its account's list (a routed, complete message only). */
export async function applyOptOutKeyword(message: {
  accountId: string | null;
  from: string;
  body: string;
  complete: boolean;
}): Promise<void> {
  if (!message.accountId || !message.complete) return;
  const match = optOutKeywordOf(message.body);
  if (!match) return;
  const change = { accountId: message.accountId, number: message.from, actor: `keyword:${match.keyword}` };
  try {
    if (match.optOut) await addOptOut(change);
    else await removeOptOut(change);
  } catch (error) {
    // START from a number not on the list, or a sender that is not a mobile number: nothing to change.
    if (error instanceof AppError && (error.code === "NOT_FOUND" || error.code === "VALIDATION_ERROR")) {
      logger.debug({ keyword: match.keyword, code: error.code }, "opt-out keyword changed nothing");
      return;
    }
    throw error;
  }
}
