import { z } from "zod";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/password";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { isPlatformRole, roleSchema, type Role } from "./roles";

/** RFC 5321 caps a forward path at 256 octets, 254 of them the address itself. */
export const MAX_EMAIL_LENGTH = 254;
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)
  .pipe(z.email("must be an email address"));
export const passwordSchema = z.string().min(10, "must be at least 10 characters").max(200, "must be at most 200 characters");

export async function createUser(input: {
  email: string;
  password: string;
  role: Role;
  accountId?: string | null;
  name?: string;
  actor: string;
}): Promise<{ id: string; email: string; role: Role; accountId: string | null }> {
  const email = emailSchema.safeParse(input.email);
  const password = passwordSchema.safeParse(input.password);
  const role = roleSchema.safeParse(input.role);
  const fields = [
    ...(email.success ? [] : [{ field: "email", description: email.error.issues[0].message }]),
    ...(password.success ? [] : [{ field: "password", description: password.error.issues[0].message }]),
    ...(role.success ? [] : [{ field: "role", description: "must be one of owner, developer, support, admin" }]),
  ];
  if (fields.length > 0) throw AppError.validation(fields);
  const platform = isPlatformRole(role.data!);
  if (platform && input.accountId) {
    throw AppError.validation([{ field: "account", description: `a ${role.data} user belongs to the platform, not an account` }]);
  }
  if (!platform && !input.accountId) {
    throw AppError.validation([{ field: "account", description: `a ${role.data} user needs an account` }]);
  }
  if (input.accountId && !(await db().account.findUnique({ where: { id: input.accountId }, select: { id: true } }))) {
    throw AppError.notFound("Account");
  }
  if (await db().user.findUnique({ where: { email: email.data! }, select: { id: true } })) {
    throw new AppError("CONFLICT", "A user with this email already exists", {
      fields: [{ field: "email", description: "is already taken" }],
    });
  }
  const user = await db().user.create({
    data: {
      email: email.data!,
      passwordHash: await hashPassword(password.data!),
      role: role.data!,
      accountId: input.accountId ?? null,
      name: input.name,
    },
  });
  await recordAuditEvent({
    accountId: user.accountId,
    actor: input.actor,
    action: "user.created",
    targetType: "user",
    targetId: user.id,
    data: { email: user.email, role: user.role },
  });
  return { id: user.id, email: user.email, role: user.role as Role, accountId: user.accountId };
}
