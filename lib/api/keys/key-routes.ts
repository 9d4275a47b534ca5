// The key endpoints (spec 4.4-4.6). Kit error shape. A key manages the keys of its own account; a
// test key creates test keys and sees and revokes only test keys, so a sandbox credential can never
// lock production out.
import type { ApiRoute } from "@/lib/api/route";
import { keyActor, withApiKey, type AuthedContext } from "@/lib/api/auth/with-api-key";
import { ApiResponse, bodyText, envelope } from "@/lib/api/respond";
import { parseJsonRequest, parseUuid } from "@/lib/api/parse-request";
import { withIdempotency } from "@/lib/api/idempotency/with-idempotency";
import { AppError } from "@/lib/errors";
import { decryptSecret, encryptSecret } from "@/lib/crypto";
import { createApiKey } from "@/lib/keys/create-api-key";
import { listApiKeys } from "@/lib/keys/list-api-keys";
import { revokeApiKey } from "@/lib/keys/revoke-api-key";
import { createApiKeyRequestSchema, serializeCreatedKey, serializeKeyListEntry } from "@/lib/keys/key-schemas";
import type { KeyMode } from "@/lib/keys/token";

/** Keys a caller may see and revoke: every key of the account for a live key, test keys for a test key. */
function manageableMode(context: AuthedContext): KeyMode | undefined {
  return context.auth.mode === "test" ? "test" : undefined;
}

async function createKey(context: AuthedContext): Promise<ApiResponse> {
  const { name } = parseJsonRequest(context, createApiKeyRequestSchema);
  const key = await createApiKey({ accountId: context.auth.accountId, name, mode: context.auth.mode, actor: keyActor(context.auth) });
  return envelope(201, "API key created", serializeCreatedKey(key));
}

async function listKeys(context: AuthedContext): Promise<ApiResponse> {
  const keys = await listApiKeys(context.auth.accountId, manageableMode(context));
  return envelope(200, "", keys.map(serializeKeyListEntry));
}

async function revokeKey(context: AuthedContext): Promise<ApiResponse> {
  const keyId = parseUuid(context.params.id);
  if (!keyId) {
    throw new AppError("BAD_REQUEST", "Invalid token id", {
      description: "The token id must be a UUID",
      fields: [{ field: "id", description: "must be a UUID" }],
    });
  }
  await revokeApiKey({ accountId: context.auth.accountId, keyId, mode: manageableMode(context), actor: keyActor(context.auth) });
  // The same answer whether or not a key was revoked: an id's existence is never revealed.
  return envelope(200, "API key revoked");
}

type KeyHandler = (context: AuthedContext) => Promise<ApiResponse>;

/** Replaces a successful response's body with the result of `transform`, keeping status and headers. */
function transformSuccessBody(handler: KeyHandler, transform: (body: string) => string): KeyHandler {
  return async (context) => {
    const response = await handler(context);
    if (!response.ok) return response;
    return new ApiResponse(response.status, transform(bodyText(response)), response.headers);
  };
}

/**
 * Idempotency-Key for key creation. withIdempotency keeps the response it replays for 24 hours, and
 * this one holds a new key's secret, which must never rest in plain text: the stored copy is sealed
 * (AES-GCM under APP_SECRET) on its way in and opened on every way out, first answer and replays alike.
 */
function withSealedIdempotency(handler: KeyHandler): KeyHandler {
  return transformSuccessBody(withIdempotency(transformSuccessBody(handler, encryptSecret)), decryptSecret);
}

export const keyRoutes: ApiRoute[] = [
  { method: "POST", path: "/api/v1/api-tokens", errorShape: "kit", handler: withApiKey(withSealedIdempotency(createKey)) },
  { method: "GET", path: "/api/v1/api-tokens", errorShape: "kit", handler: withApiKey(listKeys) },
  { method: "DELETE", path: "/api/v1/api-tokens/:id", errorShape: "kit", handler: withApiKey(revokeKey) },
];
