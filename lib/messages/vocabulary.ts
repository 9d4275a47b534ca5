// The one set of words the dashboard uses for states, carriers and carrier codes. Stored values
// ("success", "netone", "ESME_RINVDSTADR") stay as the API and the database spell them; people read
// these labels, with the raw code shown beside a reason so it can still be searched for.
import type { Operator } from "@/lib/carriers/operators";

export type Tone = "gray" | "green" | "blue" | "amber" | "red" | "violet";
export type Label = { label: string; tone: Tone };

/** A message's state as a reader thinks of it: a receipt's "Delivered" beats the carrier's acceptance. */
const MESSAGE_STATUS: Record<string, Label> = {
  // A scheduled send waits as created until its send_at.
  created: { label: "Scheduled", tone: "gray" },
  enqueued: { label: "Queued", tone: "gray" },
  processing: { label: "Sending", tone: "blue" },
  success: { label: "Sent", tone: "blue" },
  failed: { label: "Failed", tone: "red" },
};
const DELIVERED: Label = { label: "Delivered", tone: "green" };

export function messageStatusLabel(status: string, deliveredAt: string | Date | null): Label {
  if (deliveredAt && status === "success") return DELIVERED;
  return MESSAGE_STATUS[status] ?? { label: sentenceCase(status), tone: "gray" };
}

/** The statuses a message filter offers, in the words of the badges. */
export const MESSAGE_STATUS_FILTERS = (["created", "enqueued", "processing", "success", "failed"] as const).map((value) => ({
  value,
  label: MESSAGE_STATUS[value].label,
}));

const DURATION_UNITS: Array<[seconds: number, unit: string]> = [
  [86_400, "day"],
  [3_600, "hour"],
  [60, "minute"],
  [1, "second"],
];

/** A whole number of seconds in the largest unit that divides it ("5 minutes", "24 hours", "7 days"); days from two on. */
export function durationWords(seconds: number): string {
  const [size, unit] = DURATION_UNITS.find(([size]) => seconds % size === 0 && (size !== 86_400 || seconds >= 2 * size))!;
  const count = seconds / size;
  return `${count.toLocaleString("en")} ${unit}${count === 1 ? "" : "s"}`;
}

const PART_STATUS: Record<string, Label> = {
  pending: { label: "Waiting", tone: "gray" },
  submitted: { label: "Sent", tone: "blue" },
  delivered: { label: "Delivered", tone: "green" },
  failed: { label: "Failed", tone: "red" },
};

export function partStatusLabel(status: string): Label {
  return PART_STATUS[status] ?? { label: sentenceCase(status), tone: "gray" };
}

const WEBHOOK_STATUS: Record<string, Label> = {
  pending: { label: "Pending", tone: "gray" },
  succeeded: { label: "Delivered", tone: "green" },
  failed: { label: "Retrying", tone: "amber" },
  abandoned: { label: "Given up", tone: "red" },
};

export function webhookStatusLabel(status: string): Label {
  return WEBHOOK_STATUS[status] ?? { label: sentenceCase(status), tone: "gray" };
}

const LEDGER_KIND: Record<string, Label> = {
  credit: { label: "Credit", tone: "green" },
  hold: { label: "Hold", tone: "gray" },
  release: { label: "Release", tone: "blue" },
  adjustment: { label: "Adjustment", tone: "amber" },
};

/** The kinds a ledger filter offers, in the words of the badges. */
export const LEDGER_KINDS = Object.entries(LEDGER_KIND).map(([value, { label }]) => ({ value, label }));

/** A ledger row's kind: a hold is what a message is charged, a release its refund. */
export function ledgerKindLabel(kind: string): Label {
  return LEDGER_KIND[kind] ?? { label: sentenceCase(kind), tone: "gray" };
}

const TOP_UP_STATE: Record<string, Label> = {
  pending: { label: "Pending", tone: "amber" },
  approved: { label: "Approved", tone: "green" },
  declined: { label: "Declined", tone: "red" },
  cancelled: { label: "Cancelled", tone: "gray" },
};

/** A top-up request's state. */
export function topUpStateLabel(state: string): Label {
  return TOP_UP_STATE[state] ?? { label: sentenceCase(state), tone: "gray" };
}

/** Each carrier as it spells its own name. */
export const CARRIER_NAMES: Record<Operator, string> = { econet: "Econet", netone: "NetOne", telecel: "Telecel" };

export function carrierName(operator: string): string {
  return CARRIER_NAMES[operator as Operator] ?? sentenceCase(operator);
}

/** A message's encoding as the GSM standards write it. */
export function encodingName(encoding: string): string {
  return encoding === "gsm7" ? "GSM-7" : "UCS-2";
}

/** Carrier codes (SMPP command statuses and receipt states) in plain words. */
const CODE_WORDS: Record<string, string> = {
  DELIVRD: "Delivered to the handset",
  ACCEPTD: "Accepted by the carrier",
  ENROUTE: "On its way to the handset",
  UNDELIV: "The carrier could not deliver it to the handset",
  REJECTD: "The carrier rejected it",
  EXPIRED: "The handset stayed unreachable until the carrier gave up",
  DELETED: "The carrier deleted it before delivery",
  UNKNOWN: "The carrier does not know what became of it",
  ESME_ROK: "Accepted by the carrier",
  ESME_RINVMSGLEN: "The carrier refused the message length",
  ESME_RINVDSTADR: "The carrier says the number is not valid",
  ESME_RINVSRCADR: "The carrier refused the sender id",
  ESME_RINVBNDSTS: "The connection to the carrier was not ready",
  ESME_RINVCMDID: "The carrier did not understand the request",
  ESME_RALYBND: "The connection to the carrier was already open",
  ESME_RBINDFAIL: "The carrier refused the gateway's connection",
  ESME_RINVPASWD: "The carrier refused the gateway's password",
  ESME_RINVSYSID: "The carrier refused the gateway's account name",
  ESME_RSYSERR: "The carrier had an internal error",
  ESME_RMSGQFUL: "The carrier's queue was full",
  ESME_RTHROTTLED: "The carrier asked us to slow down",
  ESME_RX_T_APPN: "The carrier had a temporary problem",
  ESME_RX_P_APPN: "The carrier refused it permanently",
  ESME_RX_R_APPN: "The carrier rejected it",
  ESME_RSUBMITFAIL: "The carrier could not accept it",
  ESME_RDELIVERYFAILURE: "The carrier could not deliver it",
  ESME_RUNKNOWNERR: "The carrier reported an unknown error",
};

const NOT_FAILURES = new Set(["DELIVRD", "ACCEPTD", "ENROUTE", "ESME_ROK"]);

/** The failure reasons a message filter offers: each carrier code with its plain words. */
export const FAILURE_REASON_FILTERS = Object.entries(CODE_WORDS)
  .filter(([code]) => !NOT_FAILURES.has(code))
  .map(([value, label]) => ({ value, label }));

/**
 * A carrier code or an error text in plain words, or null when nothing in it is known. The first
 * code found in the text decides ("ESME_RINVDSTADR (0x0000000b)" → the number is not valid).
 */
export function explainCarrierCode(text: string | null | undefined): string | null {
  if (!text) return null;
  const codes = text.match(/ESME_[A-Z_]+|\b[A-Z]{7}\b/g) ?? [];
  for (const code of codes) if (CODE_WORDS[code]) return CODE_WORDS[code];
  return null;
}

function sentenceCase(text: string): string {
  return text ? text.charAt(0).toUpperCase() + text.slice(1).replaceAll("_", " ") : text;
}
