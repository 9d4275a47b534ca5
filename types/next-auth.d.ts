import type { Role } from "@/lib/users/roles";

declare module "next-auth" {
  interface Session {
    user?: { id: string; email: string; role: Role; accountId: string | null };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    role?: Role;
    accountId?: string | null;
    sessionVersion?: number;
    /** The UserSession row of this sign-in (lib/auth/auth-options.ts). */
    sid?: string;
  }
}
