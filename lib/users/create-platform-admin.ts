import { generatePassword } from "@/lib/auth/password";
import { sql } from "@/lib/db/client";
import { createUser } from "./create-user";

/** A platform admin with a generated password, returned once (`npm run cli -- users:create-admin`). */
export async function createPlatformAdmin(input: { email: string; actor: string }) {
  const password = generatePassword();
  const user = await createUser({ email: input.email, password, role: "admin", actor: input.actor });
  return { id: user.id, email: user.email, role: user.role, password };
}

/** Raw SQL: a server's start asks this, and Prisma's first query would cost the process its start-up. */
export async function hasPlatformAdmin(): Promise<boolean> {
  return (await sql().get(`SELECT 1 AS "found" FROM "User" WHERE "role" = 'admin' LIMIT 1`)) !== undefined;
}
