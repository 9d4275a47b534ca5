import { sql } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseMessageRow, type Message } from "./message-row";

/**
 * One message of an account. Another account's message is "not found", exactly like an unknown id.
 * Raw SQL: this is the API's hottest read, and a Prisma findFirst costs about 1 ms of CPU here.
 */
export async function getMessage(accountId: string, id: string): Promise<Message> {
  const row = await sql().get(`SELECT * FROM "Message" WHERE "id" = ? AND "accountId" = ?`, [id, accountId]);
  if (!row) throw AppError.notFound("SMS");
  return parseMessageRow(row);
}
