// Opt-out keywords in inbound messages: a reply of STOP (and its synonyms, and the account's own stop
// keywords) to one of the account's numbers puts the sender on the account's opt-out list, START
// (and its synonyms and the account's own) takes it off. Only a whole message that is the keyword
// counts: "please stop sending" is a conversation, not a request. When the account turned
// confirmations on, a keyword that changed the list is answered (./confirmation-reply.ts).
import { logger } from "@/lib/log";
import { AppError } from "@/lib/errors";
import { addOptOut, removeOptOut } from "./opt-outs";
import { START_KEYWORDS, STOP_KEYWORDS } from "./keyword-lists";
import { KEYWORD_PATTERN, readOptOutSettings } from "./opt-out-settings";
import { sendConfirmationReply } from "./confirmation-reply";

export { START_KEYWORDS, STOP_KEYWORDS } from "./keyword-lists";

/**
 * The message's text as a candidate keyword: without case, and without the spaces, punctuation,
 * symbols and emoji around it, the emoji with the invisible characters that join and style them
 * (zero-width joiner, variation selectors, keycap, tags), as in "STOP ⛔️". Compatibility forms
 * read as the letters they stand for (NFKC): a handset's full-width "ＳＴＯＰ" is STOP.
 */
function wordOf(text: string): string {
  return text
    .normalize("NFKC")
    .trim()
    .replace(/^[\p{P}\p{S}\p{Cf}\s\u{FE00}-\u{FE0F}\u{20E3}]+|[\p{P}\p{S}\p{Cf}\s\u{FE00}-\u{FE0F}\u{20E3}]+$/gu, "")
    .toUpperCase();
}

/**
 * The keyword a message's text is, ignoring case and the spaces, punctuation and emoji around it; null when it
 * is none. The account's own keywords count beside the built-in ones.
 */
export function optOutKeywordOf(
  text: string,
  own: { stopKeywords: readonly string[]; startKeywords: readonly string[] } = { stopKeywords: [], startKeywords: [] },
): { keyword: string; optOut: boolean } | null {
  const word = wordOf(text);
  if (STOP_KEYWORDS.has(word) || own.stopKeywords.includes(word)) return { keyword: word, optOut: true };
  if (START_KEYWORDS.has(word) || own.startKeywords.includes(word)) return { keyword: word, optOut: false };
  return null;
}

/** Applies a keyword an inbound message carries to its account's list (a routed, complete message only). */
export async function applyOptOutKeyword(message: {
  accountId: string | null;
  from: string;
  to: string;
  body: string;
  complete: boolean;
  mode: "test" | "live";
}): Promise<void> {
  if (!message.accountId || !message.complete) return;
  // Most inbound messages are conversation: only a single word can be a keyword, so only then are
  // the account's settings read.
  const word = wordOf(message.body);
  if (!KEYWORD_PATTERN.test(word)) return;
  const settings = await readOptOutSettings(message.accountId);
  const match = optOutKeywordOf(word, settings);
  if (!match) return;
  const change = { accountId: message.accountId, number: message.from, actor: `keyword:${match.keyword}` };
  try {
    if (match.optOut) {
      const { created } = await addOptOut(change);
      if (!created) return;
    } else await removeOptOut(change);
  } catch (error) {
    // START from a number not on the list, or a sender that is not a mobile number: nothing to change.
    if (error instanceof AppError && (error.code === "NOT_FOUND" || error.code === "VALIDATION_ERROR")) {
      logger.debug({ keyword: match.keyword, code: error.code }, "opt-out keyword changed nothing");
      return;
    }
    throw error;
  }
  if (settings.confirm) {
    await sendConfirmationReply({
      accountId: message.accountId,
      to: message.from,
      inboundNumber: message.to,
      optOut: match.optOut,
      body: match.optOut ? settings.stopReply : settings.startReply,
      test: message.mode === "test",
    });
  }
}
