// Bulk compose: turns pasted text or a CSV file into recipients before anything is sent. Runs in the
// browser in chunks (yielding between them, so a progress bar can move on a 100,000-line list) with
// the same parseMsisdn the send itself uses, so what is listed as valid is what will be accepted.
// Numbers on the account's opt-out list (asked of the server, a few thousand at a time) are listed
// apart and left out of the send and its price, since the send would refuse them.
import { readCsvCell } from "@/lib/csv";
import { parseMsisdn } from "@/lib/messages/msisdn";
import type { Operator } from "@/lib/carriers/operators";

export type InvalidEntry = { line: number; value: string; reason: string };
export type DuplicateEntry = { line: number; value: string; to: string; firstLine: number };
export type OptedOutEntry = { line: number; value: string; to: string };
/** Which of these E.164 numbers are on the account's opt-out list. */
export type FindOptedOut = (numbers: string[]) => Promise<string[]>;
export type CheckedRecipients = {
  /** Distinct E.164 numbers in first-seen order. */
  valid: { to: string; operator: Operator }[];
  invalid: InvalidEntry[];
  duplicates: DuplicateEntry[];
  /** On the account's opt-out list: not sent, not priced. */
  optedOut: OptedOutEntry[];
  perOperator: Record<Operator, number>;
};

const CHUNK = 2_000;
/** Numbers per opt-out lookup. */
export const OPT_OUT_LOOKUP_CHUNK = 5_000;

/**
 * One candidate per line: the first cell of a CSV row (comma, semicolon or tab separated), or every
 * whitespace/comma-separated token of a pasted line. A first row without digits is a CSV header.
 */
export function extractCandidates(text: string, { csv }: { csv: boolean }): { line: number; value: string }[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const candidates: { line: number; value: string }[] = [];
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    if (csv) {
      const cell = readCsvCell(line.split(/[,;\t]/)[0].trim());
      if (index === 0 && !/\d/.test(cell)) return;
      if (cell) candidates.push({ line: index + 1, value: cell });
      return;
    }
    for (const token of line.split(/[,;\t]+/)) {
      if (token.trim()) candidates.push({ line: index + 1, value: token.trim() });
    }
  });
  return candidates;
}

export async function checkRecipients(
  candidates: { line: number; value: string }[],
  onProgress: (done: number, total: number) => void = () => undefined,
  findOptedOut?: FindOptedOut,
): Promise<CheckedRecipients> {
  const result: CheckedRecipients = {
    valid: [],
    invalid: [],
    duplicates: [],
    optedOut: [],
    perOperator: { econet: 0, netone: 0, telecel: 0 },
  };
  const firstLineOf = new Map<string, number>();
  const firstValueOf = new Map<string, string>();
  for (let start = 0; start < candidates.length; start += CHUNK) {
    for (const { line, value } of candidates.slice(start, start + CHUNK)) {
      const parsed = parseMsisdn(value);
      if (!parsed.ok) {
        result.invalid.push({ line, value, reason: parsed.reason });
        continue;
      }
      const { to, operator } = parsed.recipient;
      const firstLine = firstLineOf.get(to);
      if (firstLine !== undefined) {
        result.duplicates.push({ line, value, to, firstLine });
        continue;
      }
      firstLineOf.set(to, line);
      firstValueOf.set(to, value);
      result.valid.push({ to, operator });
      result.perOperator[operator]++;
    }
    onProgress(Math.min(start + CHUNK, candidates.length), candidates.length);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  if (findOptedOut && result.valid.length > 0) await setOptedOutApart(result, firstLineOf, firstValueOf, findOptedOut);
  return result;
}

async function setOptedOutApart(
  result: CheckedRecipients,
  firstLineOf: Map<string, number>,
  firstValueOf: Map<string, string>,
  findOptedOut: FindOptedOut,
): Promise<void> {
  const optedOut = new Set<string>();
  for (let start = 0; start < result.valid.length; start += OPT_OUT_LOOKUP_CHUNK) {
    const numbers = result.valid.slice(start, start + OPT_OUT_LOOKUP_CHUNK).map((recipient) => recipient.to);
    for (const number of await findOptedOut(numbers)) optedOut.add(number);
  }
  if (optedOut.size === 0) return;
  result.valid = result.valid.filter((recipient) => {
    if (!optedOut.has(recipient.to)) return true;
    result.optedOut.push({ line: firstLineOf.get(recipient.to)!, value: firstValueOf.get(recipient.to)!, to: recipient.to });
    result.perOperator[recipient.operator]--;
    return false;
  });
}
