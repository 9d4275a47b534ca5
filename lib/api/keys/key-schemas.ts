// Response contracts of the key endpoints (spec 2.4 and 2.5). Responses are serialised through
// these schemas, so a field not listed here (the hash, anything new) can never leak.
import { z } from "zod";
import type { CreatedApiKey } from "./create-api-key";

export const apiKeyCreatedSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    token: z.string().describe("The key secret; returned only in this response"),
    token_prefix: z.string().length(12),
    account_id: z.uuid(),
    created_at: z.iso.datetime({ offset: true }),
  })
  .strict()
  .meta({ id: "ApiKeyCreated" });

export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

export function serializeCreatedKey(key: CreatedApiKey): ApiKeyCreated {
  return apiKeyCreatedSchema.parse({
    id: key.id,
    name: key.name,
    token: key.token,
    token_prefix: key.tokenPrefix,
    account_id: key.accountId,
    created_at: key.createdAt.toISOString(),
  });
}
