// Delivery receipts (SMPP 3.4 appendix B): a deliver_sm whose esm_class says "MC delivery receipt".
// The receipted_message_id and message_state TLVs win when present; otherwise the text
//   id:IIIIIIIIII sub:SSS dlvrd:DDD submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DDDDDDD err:E text:…
// is parsed (keys case-insensitive, fields in any order, seconds in the dates optional).
import type { ShortMessageFields } from "./pdu";

export type ReceiptStat = "DELIVRD" | "EXPIRED" | "DELETED" | "UNDELIV" | "ACCEPTD" | "UNKNOWN" | "REJECTD" | "ENROUTE";

export type DeliveryReceipt = {
  /** The carrier's message id as the receipt gives it (decimal or hex; see carrierIdCandidates). */
  messageId: string;
  stat: ReceiptStat;
  /** The network error code of the text form, when given. */
  err: string | null;
  doneAt: Date | null;
};

/** States after which nothing more will happen to the part, and it was not delivered. */
export const FAILED_STATS: ReadonlySet<ReceiptStat> = new Set(["UNDELIV", "REJECTD", "EXPIRED", "DELETED"]);

/** message_state TLV values (SMPP 3.4 5.2.28) and the text form's stat for each. */
const STAT_OF_STATE: Record<number, ReceiptStat> = {
  1: "ENROUTE",
  2: "DELIVRD",
  3: "EXPIRED",
  4: "DELETED",
  5: "UNDELIV",
  6: "ACCEPTD",
  7: "UNKNOWN",
  8: "REJECTD",
};
export const STATE_OF_STAT = Object.fromEntries(Object.entries(STAT_OF_STATE).map(([state, stat]) => [stat, Number(state)])) as Record<
  ReceiptStat,
  number
>;

/** Bits 2-5 of esm_class give the message type; 0b0001 (0x04) is an MC delivery receipt. */
export function isDeliveryReceipt(esmClass: number): boolean {
  return (esmClass & 0x3c) === 0x04;
}

function normaliseStat(stat: string): ReceiptStat {
  const upper = stat.toUpperCase();
  return (Object.values(STAT_OF_STATE) as string[]).includes(upper) ? (upper as ReceiptStat) : "UNKNOWN";
}

/** YYMMDDhhmm[ss], read as UTC (carriers rarely say which zone they mean). */
function parseReceiptDate(text: string | undefined): Date | null {
  const match = text?.match(/^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?$/);
  if (!match) return null;
  const [, yy, mm, dd, hh, mi, ss] = match;
  const date = new Date(Date.UTC(2000 + Number(yy), Number(mm) - 1, Number(dd), Number(hh), Number(mi), Number(ss ?? 0)));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** One pattern per field of the text form, compiled once: a receipt arrives for nearly every message. */
const FIELD_PATTERNS = {
  id: fieldPattern("id"),
  stat: fieldPattern("stat"),
  err: fieldPattern("err"),
  doneDate: fieldPattern("done date"),
};

function fieldPattern(name: string): RegExp {
  return new RegExp(`(?:^|\\s)${name}:(\\S*)`, "i");
}

export function parseReceiptText(text: string): { id?: string; stat?: string; err?: string; doneDate?: string } {
  const field = (pattern: RegExp) => pattern.exec(text)?.[1];
  return {
    id: field(FIELD_PATTERNS.id),
    stat: field(FIELD_PATTERNS.stat),
    err: field(FIELD_PATTERNS.err),
    doneDate: field(FIELD_PATTERNS.doneDate),
  };
}

/** The receipt a deliver_sm carries, or null when it is not a receipt or names no message. */
export function receiptFromDeliverSm(
  fields: Pick<ShortMessageFields, "esm_class" | "short_message" | "message_payload" | "receipted_message_id" | "message_state">,
): DeliveryReceipt | null {
  if (!isDeliveryReceipt(fields.esm_class)) return null;
  // The text form is ASCII, which GSM-7 (data_coding 0) and Latin-1 spell alike.
  const body = fields.short_message.length > 0 ? fields.short_message : (fields.message_payload ?? fields.short_message);
  const text = parseReceiptText(body.toString("latin1"));
  const messageId = (fields.receipted_message_id || text.id || "").trim();
  if (!messageId) return null;
  const state = fields.message_state === undefined ? undefined : STAT_OF_STATE[fields.message_state];
  return {
    messageId,
    stat: state ?? normaliseStat(text.stat ?? "UNKNOWN"),
    err: text.err ?? null,
    doneAt: parseReceiptDate(text.doneDate),
  };
}

/**
 * The ids a stored carrier id may appear as in a receipt: carriers answer submit_sm in one base
 * and report in another (Kannel's msg-id-type), so a decimal id also matches its hex form and a
 * hex id its decimal form. Hex is compared in lower case.
 */
export function carrierIdCandidates(id: string): string[] {
  const candidates = new Set([id, id.toLowerCase()]);
  if (/^\d{1,30}$/.test(id)) {
    const hex = BigInt(id).toString(16);
    candidates.add(hex).add(hex.toUpperCase());
  }
  if (/^[0-9a-f]{1,24}$/i.test(id)) candidates.add(BigInt(`0x${id}`).toString(10));
  return [...candidates];
}

/** The text form, for the simulator's receipts: 20 characters of the original text at most. */
export function formatReceiptText(receipt: {
  id: string;
  stat: ReceiptStat;
  err: string;
  submittedAt: Date;
  doneAt: Date;
  text: string;
}): string {
  const date = (value: Date) => value.toISOString().replace(/\D/g, "").slice(2, 12);
  const delivered = receipt.stat === "DELIVRD" ? "001" : "000";
  return `id:${receipt.id} sub:001 dlvrd:${delivered} submit date:${date(receipt.submittedAt)} done date:${date(receipt.doneAt)} stat:${receipt.stat} err:${receipt.err} text:${receipt.text.slice(0, 20)}`;
}
