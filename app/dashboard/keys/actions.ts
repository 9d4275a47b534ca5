"use server";

import { z } from "zod";
import { accountIdOf, defineAction, userActor } from "@/lib/dashboard/define-action";
import { createApiKey, keyNameSchema } from "@/lib/keys/create-api-key";
import { revokeApiKey } from "@/lib/keys/revoke-api-key";
import { rollApiKey, rollGracePeriods, type RollGracePeriod } from "@/lib/keys/roll-api-key";
import { AppError } from "@/lib/errors";

export type ShownKey = { id: string; name: string; token: string; mode: string };

export const createKeyAction = defineAction(
  "keys.manage",
  z.object({ name: keyNameSchema, test: z.boolean().default(false) }),
  async (input, user): Promise<ShownKey> => {
    const key = await createApiKey({
      accountId: accountIdOf(user),
      name: input.name,
      mode: input.test ? "test" : "live",
      actor: userActor(user),
    });
    return { id: key.id, name: key.name, token: key.token, mode: key.mode };
  },
);

export const revokeKeyAction = defineAction("keys.manage", z.object({ id: z.uuid() }), async (input, user) => {
  const revoked = await revokeApiKey({ accountId: accountIdOf(user), keyId: input.id, actor: userActor(user) });
  if (!revoked) throw AppError.notFound("API key");
  return { id: input.id };
});

export const rollKeyAction = defineAction(
  "keys.manage",
  z.object({ id: z.uuid(), grace: z.enum(Object.keys(rollGracePeriods) as [RollGracePeriod, ...RollGracePeriod[]]) }),
  async (input, user): Promise<ShownKey & { oldExpiresAt: string }> => {
    const { replacement, old } = await rollApiKey({
      accountId: accountIdOf(user),
      keyId: input.id,
      grace: input.grace,
      actor: userActor(user),
    });
    return {
      id: replacement.id,
      name: replacement.name,
      token: replacement.token,
      mode: replacement.mode,
      oldExpiresAt: old.expiresAt!.toISOString(),
    };
  },
);
