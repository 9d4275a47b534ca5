import { z } from "zod";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { generatePassword, hashPassword } from "@/lib/auth/password";
import { accountRoles } from "./roles";
import { createUser, emailSchema } from "./create-user";

export const addMemberSchema = z.object({
  email: emailSchema,
  role: z.enum(accountRoles, { error: "must be owner or developer" }),
});

/**
 * What an owner is told when the email belongs to a user outside their account (another account's
 * member or platform staff): the same words whoever holds it, naming no account and no role.
 */
export const EMAIL_UNAVAILABLE = "cannot be added to this account; ask them for another address";

function unavailable(): AppError {
  return AppError.validation([{ field: "email", description: EMAIL_UNAVAILABLE }]);
}

/**
 * Adds an owner or developer to an account with a generated first password, returned once for the
 * owner to pass on (Tumira sends no email). An email already in use elsewhere gets the neutral
 * EMAIL_UNAVAILABLE after the same password hashing as a success, so neither the words nor the
 * time taken tell one account about another's users.
 */
export async function addMember(input: z.infer<typeof addMemberSchema> & { accountId: string; actor: string }) {
  const email = input.email.trim().toLowerCase();
  const password = generatePassword();
  const existing = await db().user.findUnique({ where: { email }, select: { accountId: true } });
  if (existing) {
    if (existing.accountId === input.accountId) {
      throw new AppError("CONFLICT", "This email is already a member of this account", {
        fields: [{ field: "email", description: "is already a member of this account" }],
      });
    }
    await hashPassword(password);
    throw unavailable();
  }
  try {
    const user = await createUser({ email, password, role: input.role, accountId: input.accountId, actor: input.actor });
    return { id: user.id, email: user.email, role: user.role, password };
  } catch (error) {
    // Another request took the address between the lookup and the insert.
    if (error instanceof AppError && error.code === "CONFLICT") throw unavailable();
    throw error;
  }
}
