import { db } from "@/lib/db/client";
import { decryptSecret } from "@/lib/crypto";
import { logger } from "@/lib/log";

/** How many of the newest stored secrets of each kind are tried. */
const SAMPLE = 5;

/**
 * Whether this process's APP_SECRET opens the secrets stored at rest (webhook signing secrets): a
 * process started with another one (a worker that generated its own in another DATA_DIR, say)
 * cannot sign webhooks. "mismatch" when some are stored and none of the newest opens; a deliberate
 * change of APP_SECRET leaves older ones unreadable, so one that opens is enough.
 */
export async function checkAppSecret(): Promise<"ok" | "mismatch" | "nothing-stored"> {
  const [endpoints, accounts] = await Promise.all([
    db().webhookEndpoint.findMany({ select: { secretEnc: true }, orderBy: { createdAt: "desc" }, take: SAMPLE }),
    db().account.findMany({
      where: { webhookSecretEnc: { not: null } },
      select: { webhookSecretEnc: true },
      orderBy: { createdAt: "desc" },
      take: SAMPLE,
    }),
  ]);
  const stored = [...endpoints.map((row) => row.secretEnc), ...accounts.flatMap((row) => row.webhookSecretEnc ?? [])];
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
