import crypto from "node:crypto";
import { prepareDatabase } from "@/lib/db/prepare-database";
import { sql } from "@/lib/db/client";
import { toDbTime } from "@/lib/db/sql";
import { createAccount } from "@/lib/accounts/create-account";
import { listMessages, messageFiltersSchema } from "@/lib/dashboard/list-messages";
import { getAccountStats } from "@/lib/dashboard/get-account-stats";

async function main() {
const N = Number(process.env.N ?? 200000);
await prepareDatabase();
const account = await createAccount({ name: "Bench", currency: "USD", openingBalance: 0n, actor: "bench" });
const start = Date.now() - N * 5000;
await sql().transaction(async (tx) => {
  for (let i = 0; i < N; i += 500) {
    const rows: unknown[] = [];
    const values: string[] = [];
    for (let j = i; j < Math.min(i + 500, N); j++) {
      const at = toDbTime(new Date(start + j * 5000));
      values.push("(?, ?, ?, 'hi', 'B', 'econet', 350, 'USD', 1, 'gsm7', ?, ?, ?, ?, ?)");
      rows.push(crypto.randomUUID(), account.id, `+26377${String(j).padStart(7, "0")}`, j % 10 === 0 ? "failed" : "success", at, at, at, at);
    }
    await tx.run(`INSERT INTO "Message" ("id","accountId","to","body","senderId","operator","charge","currency","segments","encoding","status","nextAttemptAt","receivedAt","createdAt","updatedAt") VALUES ${values.join(",")}`, rows);
  }
});
async function time(label: string, fn: () => Promise<unknown>) {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) { const t = performance.now(); await fn(); runs.push(performance.now() - t); }
  runs.sort((a, b) => a - b);
  console.log(label, `median ${runs[2].toFixed(1)} ms`);
}
let cursor: string | undefined;
for (let i = 0; i < 2000; i++) { const page = await listMessages(account.id, messageFiltersSchema.parse({ cursor })); cursor = page.nextCursor ?? undefined; if (!cursor) break; }
await time(`${N} rows: first page`, () => listMessages(account.id, {}));
await time(`${N} rows: page 2001 (keyset)`, () => listMessages(account.id, messageFiltersSchema.parse({ cursor })));
await time(`${N} rows: failed filter`, () => listMessages(account.id, { status: "failed" }));
await time(`${N} rows: overview stats (14 days)`, () => getAccountStats(account.id));
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
