import type { Role } from "@/lib/users/roles";

declare module "next-auth" {
  interface Session {
    user?: { id: string; email: string; role: Role; accountId: string | null };
  }
}
