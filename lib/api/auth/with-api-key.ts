// The one auth wrapper of the public API: every /api/v1 handler but health runs behind it.
import type { ApiContext, ApiHandler } from "@/lib/api/route";
import { authenticateApiKey, type ApiKeyAuth } from "./authenticate-api-key";

export type AuthedContext = ApiContext & { auth: ApiKeyAuth };

export function withApiKey(handler: (context: AuthedContext) => Promise<Response>): ApiHandler {
  return async (context) => {
    const auth = await authenticateApiKey(context.request.headers.get("authorization"));
    return handler({ ...context, auth, log: context.log.child({ accountId: auth.accountId, keyId: auth.keyId }) });
  };
}
