// next-auth: credentials against our users table, JWT sessions. Each sign-in is a UserSession row
// whose id the signed cookie carries; every request re-reads that row and its user, so signing out
// (the row is ended), a removed or disabled user, or a bumped sessionVersion ends the session on
// every server process at its next request, even for a copy of the cookie. Failed sign-ins are
// throttled per email and per address (lib/auth/login-throttle.ts).
import type { NextAuthOptions } from "next-auth";
import type { JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import crypto from "node:crypto";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { hashPassword, verifyPassword } from "./password";
import { sameOriginPath } from "./callback-path";
import { tooManyAttemptsError } from "./sign-in-error";
import { clearFailedLogins, clientAddress, loginRetryAfterSeconds, recordFailedLogin } from "./login-throttle";
import type { Role } from "@/lib/users/roles";

export type SessionUser = { id: string; email: string; role: Role; accountId: string | null };

const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

// An unknown email still costs one scrypt, so response time does not tell which emails exist.
let dummyHash: Promise<string> | undefined;

export const authOptions: NextAuthOptions = {
  secret: getEnv().NEXTAUTH_SECRET,
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, request) {
        const email = credentials?.email?.trim().toLowerCase();
        if (!email || !credentials?.password) return null;
        const address = clientAddress(request?.headers);
        const retryAfter = await loginRetryAfterSeconds(email, address);
        if (retryAfter > 0) throw new Error(tooManyAttemptsError(retryAfter));
        const user = await db().user.findUnique({ where: { email } });
        dummyHash ??= hashPassword("tumira-dummy-password");
        const passwordMatches = await verifyPassword(credentials.password, user?.passwordHash ?? (await dummyHash));
        if (!user || user.disabledAt || !passwordMatches) {
          await recordFailedLogin(email, address);
          return null;
        }
        await clearFailedLogins(email);
        return { id: user.id, email: user.email, role: user.role, accountId: user.accountId, sessionVersion: user.sessionVersion };
      },
    }),
  ],
  callbacks: {
    // Only paths on this site. next-auth's client parses the answer as an absolute URL, so it names
    // NEXTAUTH_URL's origin; the dashboard itself never follows it: the sign-in form and the
    // sign-out button navigate by path, on the origin the browser used.
    redirect({ url, baseUrl }) {
      const path = sameOriginPath(url);
      if (path) return new URL(path, baseUrl).href;
      return URL.canParse(url) && new URL(url).origin === baseUrl ? url : `${baseUrl}/dashboard`;
    },
    async jwt({ token, user }) {
      if (user) {
        const signedIn = user as unknown as SessionUser & { sessionVersion: number };
        token.uid = signedIn.id;
        token.role = signedIn.role;
        token.accountId = signedIn.accountId;
        token.sessionVersion = signedIn.sessionVersion;
        token.sid = await startUserSession(signedIn.id);
      }
      return token;
    },
    async session({ session, token }) {
      const current = await findLiveSessionUser(token);
      if (!current) return { ...session, user: undefined, expires: new Date(0).toISOString() };
      return {
        ...session,
        user: { id: current.id, email: current.email, role: current.role as Role, accountId: current.accountId },
      };
    },
  },
  events: {
    async signOut({ token }) {
      if (token?.sid) await endUserSession(token.sid);
    },
  },
};

async function startUserSession(userId: string): Promise<string> {
  const id = crypto.randomUUID();
  await db().userSession.create({ data: { id, userId, expiresAt: new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000) } });
  return id;
}

/** Ends one sign-in; a cookie naming it is refused from now on. */
async function endUserSession(sessionId: string): Promise<void> {
  await db().userSession.updateMany({ where: { id: sessionId, endedAt: null }, data: { endedAt: new Date() } });
}

/** The user of a cookie's session while that session is live and the user may still sign in. */
async function findLiveSessionUser(token: JWT) {
  if (!token.sid) return null;
  const found = await db().userSession.findUnique({ where: { id: token.sid }, include: { user: true } });
  if (!found || found.endedAt || found.expiresAt <= new Date()) return null;
  const { user } = found;
  if (user.disabledAt || user.sessionVersion !== token.sessionVersion) return null;
  return user;
}
