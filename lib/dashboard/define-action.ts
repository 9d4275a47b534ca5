// Server actions of the dashboard are defined through this: permission check first, then the input
// parsed with the contract's zod schema, then the domain function. Results are plain data; domain
// errors come back as { ok: false } with the failing fields named, never as a thrown 500.
import type { z } from "zod";
import { AppError, type FieldError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { toFieldErrors } from "@/lib/api/parse-request";
import type { Permission } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/require-permission";
import type { SessionUser } from "@/lib/auth/auth-options";

export type ActionResult<T> = { ok: true; data: T } | { ok: false; code: string; error: string; fields?: FieldError[] };

export function defineAction<S extends z.ZodType, T>(
  permission: Permission,
  schema: S,
  run: (input: z.output<S>, user: SessionUser) => Promise<T>,
): (input: z.input<S>) => Promise<ActionResult<T>> {
  return async (input) => {
    try {
      const user = await requirePermission(permission);
      const parsed = schema.safeParse(input);
      if (!parsed.success) {
        return { ok: false, code: "VALIDATION_ERROR", error: "Check the highlighted fields", fields: toFieldErrors(parsed.error) };
      }
      return { ok: true, data: await run(parsed.data, user) };
    } catch (error) {
      if (error instanceof AppError && error.code !== "INTERNAL") {
        return { ok: false, code: error.code, error: error.message, fields: error.options.fields };
      }
      logger.error({ err: error, permission }, "dashboard action failed");
      return { ok: false, code: "INTERNAL", error: "Something went wrong on our side; it has been logged" };
    }
  };
}

/** The account an account-scoped action works on: always the signed-in user's own. */
export function accountIdOf(user: SessionUser): string {
  if (!user.accountId) throw new AppError("FORBIDDEN", "This needs an account user");
  return user.accountId;
}

/** The actor string of audit and ledger rows for a dashboard user. */
export function userActor(user: Pick<SessionUser, "id">): string {
  return `user:${user.id}`;
}
