import { sql } from "@/lib/db/client";
import { valuesTable } from "@/lib/db/batch-lists";
import { createGroupCommit } from "@/lib/db/group-commit";
import { fromDbTime, fromDbTimeOrNull, type Row } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { isApiKeyUsable, unknownApiKeyError } from "@/lib/keys/find-unusable-api-keys";
import type { SmsSource } from "./serialize-sms";

type MessageRead = { keyId: string; id: string };

/** Reads arriving together share one statement; a few hundred ids make a small statement on both engines. */
const MAX_READS_PER_STATEMENT = 256;

/**
 * One message of the API key's account, read with the key's state: a key revoked or expired since it
 * was authenticated (it may come from the cache) is refused here, with the 401 of authentication.
 * Another account's message is "not found", exactly like an unknown id.
 * Concurrent reads are answered by one statement: on PostgreSQL a statement is a round trip to a
 * backend that shares the cores, and one per read bounded the read rate (about 3,300/s).
 */
export function getMessageForApiKey(keyId: string, id: string): Promise<SmsSource> {
  return readTogether({ keyId, id });
}

const readTogether = createGroupCommit<MessageRead, SmsSource>(readMessages, MAX_READS_PER_STATEMENT);

/**
 * Raw SQL of only the Sms object's columns: this is the API's hottest read, and a Prisma findFirst
 * costs about 1 ms of CPU here.
 */
async function readMessages(reads: MessageRead[]): Promise<Array<SmsSource | AppError>> {
  const requested = valuesTable(
    sql().dialect,
    ["text", "text"],
    reads.map((read) => [read.id, read.keyId]),
  );
  const rows = await sql().all(
    `SELECT v.column1 AS "requestedId", v.column2 AS "requestedKeyId", k."active" AS "keyActive", k."expiresAt" AS "keyExpiresAt",
       m."id", m."to", m."body", m."senderId", m."operator", m."charge", m."currency", m."operatorResponse",
       m."receivedAt", m."status", m."createdAt", m."deliveredAt"
     FROM ${requested.text}
     JOIN "ApiKey" k ON k."id" = v.column2
     LEFT JOIN "Message" m ON m."id" = v.column1 AND m."accountId" = k."accountId"`,
    requested.params,
    { prepared: true },
  );
  const found = new Map(rows.map((row) => [`${row.requestedKeyId} ${row.requestedId}`, row]));
  const now = Date.now();
  return reads.map((read) => {
    const row = found.get(`${read.keyId} ${read.id}`);
    if (!row || !isApiKeyUsable({ active: row.keyActive, expiresAt: row.keyExpiresAt }, now)) return unknownApiKeyError();
    if (row.id === null) return AppError.notFound("SMS");
    return toSmsSource(row);
  });
}

function toSmsSource(row: Row): SmsSource {
  return {
    id: String(row.id),
    to: String(row.to),
    body: String(row.body),
    senderId: String(row.senderId),
    operator: String(row.operator),
    charge: BigInt(row.charge as number | string | bigint),
    currency: String(row.currency),
    operatorResponse: String(row.operatorResponse),
    receivedAt: fromDbTime(row.receivedAt),
    status: String(row.status),
    createdAt: fromDbTime(row.createdAt),
    deliveredAt: fromDbTimeOrNull(row.deliveredAt),
  };
}
