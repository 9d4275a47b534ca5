import { generatePassword } from "@/lib/auth/password";
import { sql } from "@/lib/db/client";
import { createAccount } from "./create-account";

const DEMO_OWNER_EMAIL = "owner@demo.tumira.local";

export type DemoAccount = { accountId: string; email: string; password: string };

/**
 * On an empty database: the Demo account (USD 100.00, sender DEMO) and its owner, whose password is
 * returned once. The check is raw SQL: it runs at every start, Prisma only when there is a demo to make.
 */
export async function seedDemo(): Promise<DemoAccount | null> {
  if (await sql().get(`SELECT 1 AS "found" FROM "Account" LIMIT 1`)) return null;
  const password = generatePassword();
  const account = await createAccount({
    name: "Demo",
    currency: "USD",
    openingBalance: 1_000_000n,
    senders: ["DEMO"],
    owner: { email: DEMO_OWNER_EMAIL, password },
    actor: "system",
  });
  return { accountId: account.id, email: DEMO_OWNER_EMAIL, password };
}
