import { z } from "zod";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { generateToken, hashToken, tokenPrefix, type KeyMode } from "./token";
import { isStorableText, NOT_TEXT_DESCRIPTION } from "@/lib/text";

export const keyNameSchema = z
  .string()
  .trim()
  .min(1, "cannot be blank")
  .max(100, "must be at most 100 characters")
  .refine(isStorableText, NOT_TEXT_DESCRIPTION);

export type CreatedApiKey = {
  id: string;
  name: string;
  token: string;
  tokenPrefix: string;
  accountId: string;
  mode: KeyMode;
  createdAt: Date;
};

/** Creates a key and returns its secret, which exists nowhere else afterwards. */
export async function createApiKey(input: { accountId: string; name: string; mode?: KeyMode; actor: string }): Promise<CreatedApiKey> {
  const name = keyNameSchema.safeParse(input.name);
  if (!name.success) throw AppError.validation([{ field: "name", description: name.error.issues[0].message }]);
  if (!(await db().account.findUnique({ where: { id: input.accountId }, select: { id: true } }))) {
    throw AppError.notFound("Account");
  }
  const mode = input.mode ?? "live";
  const token = generateToken(mode);
  const key = await db().apiKey.create({
    data: {
      accountId: input.accountId,
      name: name.data,
      tokenHash: hashToken(token),
      tokenPrefix: tokenPrefix(token),
      mode,
      createdById: input.actor,
    },
  });
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "key.created",
    targetType: "api_key",
    targetId: key.id,
    data: { name: key.name, prefix: key.tokenPrefix, mode },
  });
  return { id: key.id, name: key.name, token, tokenPrefix: key.tokenPrefix!, accountId: key.accountId, mode, createdAt: key.createdAt };
}
