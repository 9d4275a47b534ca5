// An account's own opt-out keywords (beside STOP, START and their synonyms) and its optional
// confirmation replies. Keywords are kept upper case, space-separated, in one row per account that
// the keyword handler reads by primary key for each inbound message that could be a keyword.
import { sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { parseRowOrNull } from "@/lib/db/stores/shared/rows";
import { AppError, type FieldError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { segmentMessage, MAX_SEGMENTS } from "@/lib/messages/segments";
import { isStorableText, NOT_TEXT_DESCRIPTION } from "@/lib/text";
import { START_KEYWORDS, STOP_KEYWORDS } from "./keyword-lists";

export const DEFAULT_STOP_REPLY = "You are unsubscribed and will receive no more messages from us. Reply START to subscribe again.";
export const DEFAULT_START_REPLY = "You are subscribed again. Reply STOP to unsubscribe.";
export const MAX_ACCOUNT_KEYWORDS = 20;
/** A keyword is one word: what a handset user types, and what the matcher can compare whole. */
export const KEYWORD_PATTERN = /^[A-Z0-9]{1,20}$/;
/** A confirmation reply is one SMS at most, so a keyword costs its sender's account one segment. */
const MAX_REPLY_SEGMENTS = 1;

export type OptOutSettings = {
  stopKeywords: string[];
  startKeywords: string[];
  confirm: boolean;
  stopReply: string;
  startReply: string;
};

export const DEFAULT_SETTINGS: OptOutSettings = {
  stopKeywords: [],
  startKeywords: [],
  confirm: false,
  stopReply: DEFAULT_STOP_REPLY,
  startReply: DEFAULT_START_REPLY,
};

const SETTINGS_ROW = { stopKeywords: "text", startKeywords: "text", confirm: "boolean", stopReply: "text", startReply: "text" } as const;

function words(text: string): string[] {
  return text.split(" ").filter(Boolean);
}

/** The account's settings; the defaults when it never saved any. */
export async function readOptOutSettings(accountId: string): Promise<OptOutSettings> {
  const row = parseRowOrNull(
    await sql().get(
      `SELECT "stopKeywords", "startKeywords", "confirm", "stopReply", "startReply" FROM "OptOutSettings" WHERE "accountId" = ?`,
      [accountId],
    ),
    SETTINGS_ROW,
  );
  if (!row) return { ...DEFAULT_SETTINGS };
  return {
    stopKeywords: words(row.stopKeywords),
    startKeywords: words(row.startKeywords),
    confirm: row.confirm,
    stopReply: row.stopReply,
    startReply: row.startReply,
  };
}

/** Keywords as an owner typed them (comma, space or newline separated), upper-cased and checked. */
function parseKeywords(raw: string | readonly string[], field: string, fields: FieldError[]): string[] {
  const list = (typeof raw === "string" ? raw.split(/[\s,;]+/) : raw).map((word) => word.trim().toUpperCase()).filter(Boolean);
  const unique = [...new Set(list)];
  const bad = unique.filter((word) => !KEYWORD_PATTERN.test(word));
  if (bad.length > 0) fields.push({ field, description: `${bad.join(", ")}: a keyword is 1-20 letters or digits, no spaces` });
  else if (unique.length > MAX_ACCOUNT_KEYWORDS) fields.push({ field, description: `must be at most ${MAX_ACCOUNT_KEYWORDS} keywords` });
  return unique;
}

function checkReply(text: string, field: string, fields: FieldError[]): string {
  const reply = text.trim();
  if (!reply) fields.push({ field, description: "cannot be blank" });
  else if (!isStorableText(reply)) fields.push({ field, description: NOT_TEXT_DESCRIPTION });
  else if (segmentMessage(reply).segments > Math.min(MAX_REPLY_SEGMENTS, MAX_SEGMENTS))
    fields.push({ field, description: "must fit in one SMS (160 GSM-7 characters, or 70 with other characters)" });
  return reply;
}

/**
 * Saves an account's settings. A keyword may be in one list only, and neither list may take a word
 * of the built-in lists of the other side (a STOP that started a subscription would betray the sender).
 */
export async function saveOptOutSettings(input: {
  accountId: string;
  stopKeywords: string | readonly string[];
  startKeywords: string | readonly string[];
  confirm: boolean;
  stopReply: string;
  startReply: string;
  actor: string;
}): Promise<OptOutSettings> {
  const fields: FieldError[] = [];
  const stop = parseKeywords(input.stopKeywords, "stop_keywords", fields);
  const start = parseKeywords(input.startKeywords, "start_keywords", fields);
  const clash = stop.filter((word) => start.includes(word) || START_KEYWORDS.has(word));
  if (clash.length > 0) fields.push({ field: "stop_keywords", description: `${clash.join(", ")} cannot both stop and start messages` });
  const startClash = start.filter((word) => STOP_KEYWORDS.has(word));
  if (startClash.length > 0) fields.push({ field: "start_keywords", description: `${startClash.join(", ")} already stops messages` });
  const stopReply = checkReply(input.stopReply, "stop_reply", fields);
  const startReply = checkReply(input.startReply, "start_reply", fields);
  if (fields.length > 0) throw AppError.validation(fields);

  // The built-in words need no storing: they always work.
  const settings: OptOutSettings = {
    stopKeywords: stop.filter((word) => !STOP_KEYWORDS.has(word)),
    startKeywords: start.filter((word) => !START_KEYWORDS.has(word)),
    confirm: input.confirm,
    stopReply,
    startReply,
  };
  const now = toDbTime(new Date());
  await sql().run(
    `INSERT INTO "OptOutSettings" ("accountId", "stopKeywords", "startKeywords", "confirm", "stopReply", "startReply", "updatedAt")
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT ("accountId") DO UPDATE SET "stopKeywords" = excluded."stopKeywords", "startKeywords" = excluded."startKeywords",
       "confirm" = excluded."confirm", "stopReply" = excluded."stopReply", "startReply" = excluded."startReply", "updatedAt" = excluded."updatedAt"`,
    [input.accountId, settings.stopKeywords.join(" "), settings.startKeywords.join(" "), settings.confirm, stopReply, startReply, now],
  );
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "opt_out.settings_changed",
    targetType: "account",
    targetId: input.accountId,
    data: { stopKeywords: settings.stopKeywords, startKeywords: settings.startKeywords, confirm: settings.confirm },
  });
  return settings;
}
