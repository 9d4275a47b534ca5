// The stored part of a message's timeline (MessageEvent rows), written in the transaction of the
// change it describes: what the message's own columns cannot tell (lib/messages/message-timeline.ts).
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { insertRows } from "@/lib/db/insert-rows";

export type MessageEventKind = "retry" | "failed" | "refunded";

export async function recordMessageEvent(
  tx: SqlExecutor,
  messageId: string,
  kind: MessageEventKind,
  detail: string,
  at: Date,
): Promise<void> {
  await tx.run(`INSERT INTO "MessageEvent" ("messageId", "kind", "detail", "createdAt") VALUES (?, ?, ?, ?)`, [
    messageId,
    kind,
    detail,
    toDbTime(at),
  ]);
}

/** The same event for many messages, in multi-row INSERTs. */
export async function recordMessageEvents(
  tx: SqlExecutor,
  messageIds: readonly string[],
  kind: MessageEventKind,
  detail: string,
  at: Date,
): Promise<void> {
  if (messageIds.length === 0) return;
  await insertRows(
    tx,
    "MessageEvent",
    ["messageId"],
    messageIds.map((id) => [id]),
    { columns: ["kind", "detail", "createdAt"], values: [kind, detail, toDbTime(at)] },
  );
}
