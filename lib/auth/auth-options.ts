// next-auth: credentials against our users table, JWT sessions. The session carries the user's id,
// role and account; every request re-checks the user (removed or disabled users lose their session
// at once, see sessionVersion).
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { verifyPassword } from "./password";
import type { Role } from "@/lib/users/roles";

export type SessionUser = { id: string; email: string; role: Role; accountId: string | null };

export const authOptions: NextAuthOptions = {
  secret: getEnv().NEXTAUTH_SECRET,
  session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
  pages: { signIn: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials) {
        const email = credentials?.email?.trim().toLowerCase();
        if (!email || !credentials?.password) return null;
        const user = await db().user.findUnique({ where: { email } });
        if (!user || user.disabledAt || !(await verifyPassword(credentials.password, user.passwordHash))) return null;
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
