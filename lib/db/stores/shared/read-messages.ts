// The API's message read, many reads in one statement: each joined to its key, so the key's state
// and the message come back together, and a message is found only in the key's account and mode.
import { valuesTable } from "@/lib/db/batch-lists";
import { fromDbTime, fromDbTimeOrNull, type Sql } from "@/lib/db/sql";
import { isApiKeyUsable } from "@/lib/model/api-keys";
import { isMessageStatus } from "@/lib/model/message-status";
import type { MessageRead, MessageReadResult, StoredSms } from "../types";

type ReadRow = {
  requestedId: string;
  requestedKeyId: string;
  keyActive: boolean | number;
  keyExpiresAt: unknown;
  id: string | null;
  to: string;
  body: string;
  senderId: string;
  operator: string;
  charge: number | string | bigint;
  currency: string;
  operatorResponse: string;
  receivedAt: unknown;
  status: string;
  createdAt: unknown;
  deliveredAt: unknown;
  priority: string;
  sendAt: unknown;
  validityPeriod: number | string | null;
};

/**
 * `test = (mode = 'test')`: a test key's reads see test messages only, a live key's live ones; the
 * other mode's message reads as an unknown id.
 */
export async function readMessages(database: Sql, reads: MessageRead[]): Promise<MessageReadResult[]> {
  const requested = valuesTable(
    database,
    ["text", "text"],
    reads.map((read) => [read.id, read.keyId]),
  );
  const rows = await database.all<ReadRow>(
    `SELECT v.column1 AS "requestedId", v.column2 AS "requestedKeyId", k."active" AS "keyActive", k."expiresAt" AS "keyExpiresAt",
       m."id", m."to", m."body", m."senderId", m."operator", m."charge", m."currency", m."operatorResponse",
       m."receivedAt", m."status", m."createdAt", m."deliveredAt",
       m."priority", m."sendAt", m."validityPeriod"
     FROM ${requested.text}
     JOIN "ApiKey" k ON k."id" = v.column2
     LEFT JOIN "Message" m ON m."id" = v.column1 AND m."accountId" = k."accountId" AND m."test" = (k."mode" = 'test')`,
    requested.params,
    { prepared: true },
  );
  const found = new Map(rows.map((row) => [`${row.requestedKeyId} ${row.requestedId}`, row]));
  const now = Date.now();
  return reads.map((read): MessageReadResult => {
    const row = found.get(`${read.keyId} ${read.id}`);
    if (!row || !isApiKeyUsable({ active: Boolean(row.keyActive), expiresAt: fromDbTimeOrNull(row.keyExpiresAt) }, now)) {
      return { kind: "unusable-key" };
    }
    if (row.id === null) return { kind: "not-found" };
    return { kind: "found", message: toStoredSms(row) };
  });
}

function toStoredSms(row: ReadRow): StoredSms {
  if (!isMessageStatus(row.status)) throw new Error(`message ${row.id} has an unknown status ${row.status}`);
  return {
    id: row.id!,
    to: row.to,
    body: row.body,
    senderId: row.senderId,
    operator: row.operator,
    charge: BigInt(row.charge),
    currency: row.currency,
    operatorResponse: row.operatorResponse,
    receivedAt: fromDbTime(row.receivedAt),
    status: row.status,
    createdAt: fromDbTime(row.createdAt),
    deliveredAt: fromDbTimeOrNull(row.deliveredAt),
    priority: row.priority,
    sendAt: fromDbTimeOrNull(row.sendAt),
    validityPeriod: row.validityPeriod === null ? null : Number(row.validityPeriod),
  };
}
