import { createGroupCommit } from "@/lib/db/group-commit";
import { getStores, type MessageRead, type StoredSms } from "@/lib/db/stores";
import { AppError } from "@/lib/errors";
import { unknownApiKeyError } from "@/lib/model/api-keys";

/** Reads arriving together share one statement; a few hundred ids make a small statement on both engines. */
const MAX_READS_PER_STATEMENT = 256;

/**
 * One message of the API key's account and mode, read with the key's state: a key revoked or expired
 * since it was authenticated (it may come from the cache) is refused here, with the 401 of
 * authentication. Another account's message, or one of the other mode (a live message to a test
 * key, a test message to a live key), is "not found", exactly like an unknown id.
 * Concurrent reads are answered by one statement: on PostgreSQL a statement is a round trip to a
 * backend that shares the cores.
 */
export function getMessageForApiKey(keyId: string, id: string): Promise<StoredSms> {
  return readTogether({ keyId, id });
}

const readTogether = createGroupCommit<MessageRead, StoredSms>(readMessages, MAX_READS_PER_STATEMENT);

async function readMessages(reads: MessageRead[]): Promise<Array<StoredSms | AppError>> {
  const results = await getStores().messages.readMessages(reads);
  return results.map((result) => {
    if (result.kind === "unusable-key") return unknownApiKeyError();
    if (result.kind === "not-found") return AppError.notFound("SMS");
    return result.message;
  });
}
