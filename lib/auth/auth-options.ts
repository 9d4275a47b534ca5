// next-auth: credentials against our users table, JWT sessions. The session carries the user's id,
// role and account; every request re-checks the user (removed or disabled users lose their session
// at once, see sessionVersion). Failed sign-ins are throttled per email and per address
// (lib/auth/login-throttle.ts).
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { hashPassword, verifyPassword } from "./password";
import { tooManyAttemptsError } from "./sign-in-error";
import { clearFailedLogins, clientAddress, loginRetryAfterSeconds, recordFailedLogin } from "./login-throttle";
import type { Role } from "@/lib/users/roles";

export type SessionUser = { id: string; email: string; role: Role; accountId: string | null };

// An unknown email still costs one scrypt, so response time does not tell which emails exist.
let dummyHash: Promise<string> | undefined;

export const authOptions: NextAuthOptions = {
  secret: getEnv().NEXTAUTH_SECRET,
  session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
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
    async jwt({ token, user }) {
      if (user) {
        const signedIn = user as unknown as SessionUser & { sessionVersion: number };
        token.uid = signedIn.id;
        token.role = signedIn.role;
        token.accountId = signedIn.accountId;
        token.sessionVersion = signedIn.sessionVersion;
      }
      return token;
    },
    async session({ session, token }) {
      const current = await db().user.findUnique({ where: { id: String(token.uid) } });
      if (!current || current.disabledAt || current.sessionVersion !== token.sessionVersion) {
        return { ...session, user: undefined, expires: new Date(0).toISOString() };
      }
      return {
        ...session,
        user: { id: current.id, email: current.email, role: current.role as Role, accountId: current.accountId },
      };
    },
  },
};
