// The dashboard session the request's cookie names, for actions that treat it apart from the user's
// other sessions (a password change keeps it).
import { cookies } from "next/headers";
import { decode } from "next-auth/jwt";
import { authOptions } from "@/lib/auth/auth-options";

/** next-auth's cookie: the __Secure- name over HTTPS, the plain one over HTTP. */
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/** The UserSession id of the request's cookie, or null without a readable one. */
export async function currentSessionId(): Promise<string | null> {
  const store = await cookies();
  const raw = SESSION_COOKIES.map((name) => store.get(name)?.value).find((value) => value !== undefined);
  if (!raw) return null;
  const token = await decode({ token: raw, secret: authOptions.secret! }).catch(() => null);
  return typeof token?.sid === "string" ? token.sid : null;
}
