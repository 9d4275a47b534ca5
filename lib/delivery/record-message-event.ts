// The message timeline the dashboard shows (MessageEvent rows), written in the transaction of the
// change it describes. "accepted" is written by the API when the message is taken.
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { insertRows } from "@/lib/db/insert-rows";

export type MessageEventKind = "dispatched" | "retry" | "success" | "failed" | "delivered" | "refunded";

export async function recordMessageEvent(tx: SqlExecutor, messageId: string, kind: MessageEventKind, detail: string, at: Date): Promise<void> {
  await tx.run(`INSERT INTO "MessageEvent" ("messageId", "kind", "detail", "createdAt") VALUES (?, ?, ?, ?)`, [messageId, kind, detail, toDbTime(at)]);
}

/** [messageId, kind, detail, createdAt as toDbTime], for recordMessageEvents. */
export type MessageEventRow = [string, MessageEventKind, string, unknown];

/** A batch's events in multi-row INSERTs, for hot paths where their order across messages does not matter. */
export async function recordMessageEvents(tx: SqlExecutor, rows: readonly MessageEventRow[]): Promise<void> {
  await insertRows(tx, "MessageEvent", ["messageId", "kind", "detail", "createdAt"], rows);
}
