import { db } from "@/lib/db/client";
import type { Role } from "./roles";

export type Member = { id: string; email: string; name: string | null; role: Role; createdAt: Date };

export async function listMembers(accountId: string): Promise<Member[]> {
  const users = await db().user.findMany({
    where: { accountId, disabledAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, email: true, name: true, role: true, createdAt: true },
  });
  return users.map((user) => ({ ...user, role: user.role as Role }));
}
