import { db } from "@/lib/db/client";
import type { SenderIdRecord } from "./add-sender";

export async function listSenders(accountId: string): Promise<SenderIdRecord[]> {
  return db().senderId.findMany({ where: { accountId }, orderBy: [{ status: "asc" }, { name: "asc" }] });
}
