import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Message } from "@/lib/db/generated/sqlite";

/** One message of an account. Another account's message is "not found", exactly like an unknown id. */
export async function getMessage(accountId: string, id: string): Promise<Message> {
  const message = await db().message.findFirst({ where: { id, accountId } });
  if (!message) throw AppError.notFound("SMS");
  return message;
}
