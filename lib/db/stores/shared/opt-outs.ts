// Which recipients of a batch are on their account's opt-out list, read with the account: nothing is
// cached, so an opt-out committed by any process is honoured by the next send, and an account with an
// empty list pays no lookup (docs/decisions/0015-opt-outs-in-the-send.md).
import type { SqlExecutor } from "@/lib/db/sql";
import { inList } from "@/lib/db/batch-lists";

const LOOKUP_CHUNK = 4096;

/** In the account row's SELECT: whether the account has any opt-out (an index probe, no round trip of its own). */
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
