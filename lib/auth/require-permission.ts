// The one server-side guard of the dashboard. Every page, server action and route handler calls it
// before touching data; a hidden button is not a permission.
import { getServerSession } from "next-auth";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { AppError } from "@/lib/errors";
import { authOptions, type SessionUser } from "./auth-options";
import { loginPath } from "./callback-path";
import { REQUEST_PATH_HEADER } from "./request-path";
import { can, type Permission } from "./permissions";

/** The signed-in user, re-read from the database (a removed or disabled user has none). */
export async function getSessionUser(): Promise<SessionUser | null> {
  const session = await getServerSession(authOptions);
  return session?.user ?? null;
}

/** An account user (owner, developer) always has an account id. */
export type AccountUser = SessionUser & { accountId: string };

/** Throws UNAUTHORIZED without a session and FORBIDDEN when the role lacks the permission. */
export function requirePermission(permission: Permission): Promise<SessionUser> {
  return requireAnyPermission([permission]);
}

/** As requirePermission, for what either of several roles' permissions allows. */
export async function requireAnyPermission(permissions: readonly Permission[]): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) throw new AppError("UNAUTHORIZED", "Sign in to continue");
  if (!permissions.some((permission) => can(user.role, permission))) throw new AppError("FORBIDDEN", "Your role does not allow this");
  return user;
}

/** For account-scoped permissions: the user and the account they act on. */
async function requireAccountPermission(permission: Permission): Promise<AccountUser> {
  const user = await requirePermission(permission);
  if (!user.accountId) throw new AppError("FORBIDDEN", "This needs an account user");
  return user as AccountUser;
}

/**
 * Pages run their guard through this: no session goes to the sign-in page (which returns to the
 * page asked for once signed in); a role without the
 * permission gets the dashboard's 404 page ("does not exist or you do not have access"), so a
 * forbidden page reveals nothing.
 */
/** To the sign-in page, which returns to the page asked for once signed in. */
export async function redirectToSignIn(): Promise<never> {
  redirect(loginPath((await headers()).get(REQUEST_PATH_HEADER)));
}

export async function guardPage<T>(guard: () => Promise<T>): Promise<T> {
  try {
    return await guard();
  } catch (error) {
    if (error instanceof AppError && error.code === "UNAUTHORIZED") await redirectToSignIn();
    if (error instanceof AppError && error.code === "FORBIDDEN") notFound();
    throw error;
  }
}

export function requirePagePermission(permission: Permission): Promise<SessionUser> {
  return guardPage(() => requirePermission(permission));
}

export function requireAccountPage(permission: Permission): Promise<AccountUser> {
  return guardPage(() => requireAccountPermission(permission));
}
