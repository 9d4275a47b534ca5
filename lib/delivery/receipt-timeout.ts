// Receipts that never come. A message the carrier accepted and never receipted is settled as sent
// once the receipt timeout (RECEIPT_TIMEOUT_HOURS) has passed since the carrier accepted it: it stays
// `success` and charged (carriers bill on acceptance), its timeline gets a `receipt_timeout` event,
// and it no longer counts as awaiting a receipt. Neither its status nor its parts change, so a
// receipt that still comes is applied as usual (./record-receipt.ts): delivered, or failed and
// refunded once. docs/decisions/0014-receipt-timeout.md gives the reasons and the cost.
//
// The sweep reads MessagePart in primary-key order. Part ids are time-ordered (UUIDv7, written when
// the carrier accepted the part), so the parts older than the timeout are a prefix of that index,
// and ReceiptSweep.lastPartId says how much of it has been read: each part is read once, in bounded
// batches, and the send and dispatch paths write nothing for it.
import { setTimeout as sleep } from "node:timers/promises";
import { parseRowOrNull, parseRows } from "@/lib/db/stores/shared/rows";
import { sql } from "@/lib/db/client";
import { toDbTime, type Sql } from "@/lib/db/sql";
import { valuesTable } from "@/lib/db/batch-lists";
import type { Logger } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { RECEIPT_TIMEOUT_EVENT } from "@/lib/messages/message-timeline";
import { SQL_STATUS } from "@/lib/model/message-status";

const SWEEP_ROW = 1;
const DEFAULT_INTERVAL_MS = 5 * 60_000;
const DEFAULT_BATCH_SIZE = 500;

/**
 * The smallest id string a part accepted at `at` or later can have: the 48-bit millisecond time of
 * a time-ordered UUID, as its first 13 characters. Every id made before `at` sorts below it.
 */
export function partIdBound(at: Date): string {
  const hex = Math.max(0, Math.floor(at.getTime())).toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8)}`;
}

/** The timeline's detail: "no delivery receipt within 72 h; settled as sent". */
export function describeReceiptTimeout(timeoutMs: number): string {
  const span = timeoutMs % 3_600_000 === 0 ? `${timeoutMs / 3_600_000} h` : `${Math.ceil(timeoutMs / 1000)} s`;
  return `no delivery receipt within ${span}; settled as sent`;
}

export type ReceiptSweepOptions = {
  /** How long after the carrier's acceptance a receipt is waited for. */
  timeoutMs: number;
  /** Parts read per batch. */
  batchSize?: number;
  now?: () => Date;
  /** Asked between batches: true stops the sweep where it is. */
  stopping?: () => boolean;
};

export type ReceiptSweepResult = { scanned: number; settled: number };

/** Reads every part accepted before the timeout that no sweep has read yet, and settles their messages. */
export async function sweepReceiptTimeouts(options: ReceiptSweepOptions): Promise<ReceiptSweepResult> {
  const database = sql();
  const now = options.now ?? (() => new Date());
  const result: ReceiptSweepResult = { scanned: 0, settled: 0 };
  await database.run(`INSERT INTO "ReceiptSweep" ("id", "lastPartId", "updatedAt") VALUES (?, '', ?) ON CONFLICT ("id") DO NOTHING`, [
    SWEEP_ROW,
    toDbTime(now()),
  ]);
  while (!options.stopping?.()) {
    const batch = await sweepBatch(database, options.timeoutMs, options.batchSize ?? DEFAULT_BATCH_SIZE, now());
    if (!batch) break;
    result.scanned += batch.scanned;
    result.settled += batch.settled;
  }
  return result;
}

/** One batch; null once nothing older than the timeout is left to read. */
async function sweepBatch(database: Sql, timeoutMs: number, batchSize: number, now: Date): Promise<ReceiptSweepResult | null> {
  const cursor = await database.get(`SELECT "lastPartId" FROM "ReceiptSweep" WHERE "id" = ?`, [SWEEP_ROW]);
  const from = parseRowOrNull(cursor, { lastPartId: "text" })?.lastPartId ?? "";
  const rows = await database.all(
    `SELECT "id", "messageId", "status", "operator" FROM "MessagePart" WHERE "id" > ? AND "id" < ? ORDER BY "id" LIMIT ?`,
    [from, partIdBound(new Date(now.getTime() - timeoutMs)), batchSize],
  );
  const parts = parseRows(rows, { id: "text", messageId: "text", status: "text", operator: "text" });
  if (parts.length === 0) return null;
  const operatorOf = new Map(parts.filter((part) => part.status === "submitted").map((part) => [part.messageId, part.operator]));
  const at = toDbTime(now);
  const settled = await database.transaction(async (tx) => {
    // The compare-and-set: of several sweepers that read the same batch, only the first moves the
    // row on; the others see it moved (PostgreSQL re-reads the row once the first commits) and let
    // the batch be.
    const moved = await tx.run(`UPDATE "ReceiptSweep" SET "lastPartId" = ?, "updatedAt" = ? WHERE "id" = ? AND "lastPartId" = ?`, [
      parts[parts.length - 1].id,
      at,
      SWEEP_ROW,
      from,
    ]);
    if (moved === 0 || operatorOf.size === 0) return [];
    // The message is read in this transaction: a receipt recorded since the batch was read wins.
    // NOT EXISTS keeps a message whose parts fell into two batches to one event. CROSS JOIN keeps
    // SQLite's join order: the listed ids, then the message by its key (not the status index).
    const ids = valuesTable(
      tx,
      ["text"],
      [...operatorOf.keys()].map((id) => [id]),
    );
    const events = await tx.all(
      `INSERT INTO "MessageEvent" ("messageId", "kind", "detail", "createdAt")
       SELECT m."id", ?, ?, ? FROM (SELECT DISTINCT v.column1 AS "id" FROM ${ids.text}) w CROSS JOIN "Message" m
       WHERE m."id" = w."id" AND m."status" = ${SQL_STATUS.success} AND m."deliveredAt" IS NULL
         AND NOT EXISTS (SELECT 1 FROM "MessageEvent" e WHERE e."messageId" = m."id" AND e."kind" = ?)
       RETURNING "messageId"`,
      [RECEIPT_TIMEOUT_EVENT, describeReceiptTimeout(timeoutMs), at, ...ids.params, RECEIPT_TIMEOUT_EVENT],
    );
    return parseRows(events, { messageId: "text" });
  });
  for (const { messageId } of settled) metrics().receiptsTimedOut.inc({ operator: operatorOf.get(messageId) ?? "unknown" });
  return { scanned: parts.length, settled: settled.length };
}

export type ReceiptTimeoutSweepOptions = Omit<ReceiptSweepOptions, "stopping"> & { logger: Logger; intervalMs?: number };

/** Runs the sweep at start and then every intervalMs. stop(): the batch in progress finishes, no other starts. */
export class ReceiptTimeoutSweep {
  private stopping = false;
  private readonly wake = new AbortController();
  private loop: Promise<void> = Promise.resolve();
  private readonly log: Logger;

  constructor(private readonly options: ReceiptTimeoutSweepOptions) {
    this.log = options.logger.child({ component: "receipt-timeout" });
  }

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        const { scanned, settled } = await sweepReceiptTimeouts({ ...this.options, stopping: () => this.stopping });
        if (settled > 0) this.log.info({ scanned, settled }, "messages without a receipt settled as sent");
      } catch (error) {
        this.log.error({ err: error }, "receipt-timeout sweep failed; it runs again at the next interval");
      }
      await sleep(this.options.intervalMs ?? DEFAULT_INTERVAL_MS, undefined, { signal: this.wake.signal }).catch(() => undefined);
    }
  }
}
