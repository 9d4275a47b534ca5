import { sql } from "@/lib/db/client";
import { parseRows } from "@/lib/db/stores/shared/rows";
import { decryptSecret } from "@/lib/crypto";
import { logger } from "@/lib/log";

/** How many of the newest stored secrets of each kind are tried. */
const SAMPLE = 5;

/**
 * Whether this process's APP_SECRET opens the secrets stored at rest (webhook signing secrets): a
 * process started with another one (a worker that generated its own in another DATA_DIR, say)
 * cannot sign webhooks. "mismatch" when some are stored and none of the newest opens; a deliberate
 * change of APP_SECRET leaves older ones unreadable, so one that opens is enough. Raw SQL: it runs
 * at every start, and a process that never needs Prisma should not load it for this.
 */
export async function checkAppSecret(): Promise<"ok" | "mismatch" | "nothing-stored"> {
  const rows = await sql().all(
    `SELECT "secret" FROM (SELECT "secretEnc" AS "secret" FROM "WebhookEndpoint" ORDER BY "createdAt" DESC LIMIT ${SAMPLE}) AS endpoints
     UNION ALL
     SELECT "secret" FROM (SELECT "webhookSecretEnc" AS "secret" FROM "Account" WHERE "webhookSecretEnc" IS NOT NULL
       ORDER BY "createdAt" DESC LIMIT ${SAMPLE}) AS accounts`,
  );
  const stored = parseRows(rows, { secret: "text" }).map((row) => row.secret);
  if (stored.length === 0) return "nothing-stored";
  return stored.some(opensWithThisSecret) ? "ok" : "mismatch";
}

function opensWithThisSecret(stored: string): boolean {
  try {
    decryptSecret(stored);
    return true;
  } catch {
    return false;
  }
}

/** At a process's start: says so, naming APP_SECRET, when it cannot open the stored secrets (it still starts). */
export async function warnOnAppSecretMismatch(): Promise<void> {
  if ((await checkAppSecret()) !== "mismatch") return;
  logger.error(
    "APP_SECRET cannot decrypt the stored webhook signing secrets: this process cannot sign webhooks until it runs with the APP_SECRET the other processes have",
  );
}
