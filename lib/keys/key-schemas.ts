// Response contracts of the key endpoints (spec 2.4 and 2.5). Responses are serialised through
// these schemas, so a field not listed here (the hash, anything new) can never leak.
import { z } from "zod";
import { keyNameSchema, type CreatedApiKey } from "./create-api-key";
import type { ApiKeyRecord } from "./list-api-keys";

export const apiKeyCreatedSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    token: z.string().describe("The key secret; returned only in this response"),
    token_prefix: z.string().length(12),
    account_id: z.uuid(),
    created_at: z.iso.datetime({ offset: true }),
  })
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

export const createApiKeyRequestSchema = z.object({ name: keyNameSchema }).meta({ id: "CreateApiKeyRequest" });

/** List entry (spec 2.5): the internal record's PascalCase field names, never key material. */
export const apiKeyListEntrySchema = z
  .object({
    ID: z.uuid(),
    CreatedAt: z.iso.datetime({ offset: true }),
    UpdatedAt: z.iso.datetime({ offset: true }).nullable().describe("Unstable"),
    Name: z.string(),
    TokenPrefix: z.string().nullable().describe("First 12 characters of the key; null on keys created before prefixes were recorded"),
    AccountId: z.uuid().describe("Unstable"),
    Active: z.boolean().describe("False once revoked (or once a rolled key's grace period has passed)"),
    LastUsedAt: z.iso.datetime({ offset: true }).nullable().describe("Null if never used; recorded at most once a minute"),
  })
  .meta({ id: "ApiKeyListEntry" });

export type ApiKeyListEntry = z.infer<typeof apiKeyListEntrySchema>;

export function serializeKeyListEntry(key: ApiKeyRecord): ApiKeyListEntry {
  return apiKeyListEntrySchema.parse({
    ID: key.id,
    CreatedAt: key.createdAt.toISOString(),
    UpdatedAt: key.updatedAt?.toISOString() ?? null,
    Name: key.name,
    TokenPrefix: key.tokenPrefix,
    AccountId: key.accountId,
    Active: key.active,
    LastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  });
}
