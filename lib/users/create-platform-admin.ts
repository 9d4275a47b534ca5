import { generatePassword } from "@/lib/auth/password";
import { db } from "@/lib/db/client";
import { createUser } from "./create-user";

/** A platform admin with a generated password, returned once (`npm run cli -- users:create-admin`). */
export async function createPlatformAdmin(input: { email: string; actor: string }) {
  const password = generatePassword();
  const user = await createUser({ email: input.email, password, role: "admin", actor: input.actor });
  return { id: user.id, email: user.email, role: user.role, password };
}

export async function hasPlatformAdmin(): Promise<boolean> {
  return (await db().user.count({ where: { role: "admin" } })) > 0;
}
