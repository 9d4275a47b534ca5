import { sql } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { isApiKeyUsable, unknownApiKeyError } from "@/lib/api/auth/authenticate-api-key";
import { parseMessageRow, type Message } from "./message-row";

/**
 * One message of the API key's account, read in one statement with the key's state: a key revoked
 * or expired since it was authenticated (it may come from the cache) is refused here, with the 401 of
 * authentication. Another account's message is "not found", exactly like an unknown id.
 * Raw SQL: this is the API's hottest read, and a Prisma findFirst costs about 1 ms of CPU here.
 */
export async function getMessageForApiKey(keyId: string, id: string): Promise<Message> {
  const row = await sql().get(
    `SELECT k."active" AS "keyActive", k."expiresAt" AS "keyExpiresAt", m.*
     FROM "ApiKey" k LEFT JOIN "Message" m ON m."id" = ? AND m."accountId" = k."accountId" WHERE k."id" = ?`,
    [id, keyId],
  );
  if (!row || !isApiKeyUsable({ active: row.keyActive, expiresAt: row.keyExpiresAt }, Date.now())) throw unknownApiKeyError();
  const { keyActive: _active, keyExpiresAt: _expiresAt, ...message } = row;
  if (message.id === null) throw AppError.notFound("SMS");
  return parseMessageRow(message);
}
