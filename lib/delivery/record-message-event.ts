// The message timeline the dashboard shows (MessageEvent rows), written in the transaction of the
// change it describes. "accepted" is written by the API when the message is taken.
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";

export type MessageEventKind = "dispatched" | "retry" | "success" | "failed" | "delivered" | "refunded";

export async function recordMessageEvent(tx: SqlExecutor, messageId: string, kind: MessageEventKind, detail: string, at: Date): Promise<void> {
  await tx.run(`INSERT INTO "MessageEvent" ("messageId", "kind", "detail", "createdAt") VALUES (?, ?, ?, ?)`, [messageId, kind, detail, toDbTime(at)]);
}
