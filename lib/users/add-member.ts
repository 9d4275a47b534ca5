import { z } from "zod";
import { generatePassword } from "@/lib/auth/password";
import { accountRoles } from "./roles";
import { createUser, emailSchema } from "./create-user";

export const addMemberSchema = z.object({
  email: emailSchema,
  role: z.enum(accountRoles, { error: "must be owner or developer" }),
});

/**
 * Adds an owner or developer to an account with a generated first password, returned once for the
 * owner to pass on (Tumira sends no email).
 */
export async function addMember(input: z.infer<typeof addMemberSchema> & { accountId: string; actor: string }) {
  const password = generatePassword();
  const user = await createUser({ email: input.email, password, role: input.role, accountId: input.accountId, actor: input.actor });
  return { id: user.id, email: user.email, role: user.role, password };
}
