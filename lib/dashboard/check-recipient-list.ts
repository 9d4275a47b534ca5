// Bulk compose: turns pasted text or a CSV file into recipients before anything is sent. Runs in the
// browser in chunks (yielding between them, so a progress bar can move on a 100,000-line list) with
// the same parseMsisdn the send itself uses, so what is listed as valid is what will be accepted.
import { parseMsisdn } from "@/lib/messages/msisdn";
import type { Operator } from "@/lib/carriers/operators";

export type InvalidEntry = { line: number; value: string; reason: string };
export type DuplicateEntry = { line: number; value: string; to: string; firstLine: number };
export type CheckedRecipients = {
  /** Distinct E.164 numbers in first-seen order. */
  valid: { to: string; operator: Operator }[];
  invalid: InvalidEntry[];
  duplicates: DuplicateEntry[];
  perOperator: Record<Operator, number>;
};

const CHUNK = 2_000;

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
      const cell = line
        .split(/[,;\t]/)[0]
        .trim()
        .replace(/^"(.*)"$/, "$1");
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
): Promise<CheckedRecipients> {
  const result: CheckedRecipients = { valid: [], invalid: [], duplicates: [], perOperator: { econet: 0, netone: 0, telecel: 0 } };
  const firstLineOf = new Map<string, number>();
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
      result.valid.push({ to, operator });
      result.perOperator[operator]++;
    }
    onProgress(Math.min(start + CHUNK, candidates.length), candidates.length);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return result;
}
