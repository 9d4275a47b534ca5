// Account-scoped endpoints: balance and sender ids. The account id in the path must be the key's own
// account; any other id (another account's, an unknown one, or not a UUID) answers the same 404.
// Requesting a sender id is an owner's change: a test key, or a key no owner stands behind, gets 403.
import type { ApiRoute } from "@/lib/api/route";
import { keyActor, withApiKey, type AuthedContext } from "@/lib/api/auth/with-api-key";
import { type ApiResponse, envelope } from "@/lib/api/respond";
import { parseJsonRequest, parseUuid } from "@/lib/api/parse-request";
import { AppError } from "@/lib/errors";
import { getBalance } from "@/lib/ledger/get-balance";
import { addSender } from "@/lib/senders/add-sender";
import { listSenders } from "@/lib/senders/list-senders";
import { createSenderIdRequestSchema, serializeBalance, serializeSenderId } from "./account-schemas";

function ownAccountId(context: AuthedContext): string {
  if (parseUuid(context.params.account_id) !== context.auth.accountId) throw AppError.notFound("Account");
  return context.auth.accountId;
}

async function showBalance(context: AuthedContext): Promise<ApiResponse> {
  const accountId = ownAccountId(context);
  return envelope(200, "Balance retrieved", serializeBalance(accountId, await getBalance(accountId)));
}

async function listSenderIds(context: AuthedContext): Promise<ApiResponse> {
  const senders = await listSenders(ownAccountId(context));
  return envelope(200, "Sender ids retrieved", senders.map(serializeSenderId));
}

async function requestSenderId(context: AuthedContext): Promise<ApiResponse> {
  const accountId = ownAccountId(context);
  const { sender_id } = parseJsonRequest(context, createSenderIdRequestSchema);
  const sender = await addSender({ accountId, name: sender_id, approved: false, actor: keyActor(context.auth) });
  return envelope(201, "Sender id requested; it can be used once approved", serializeSenderId(sender));
}

export const accountRoutes: ApiRoute[] = [
  { method: "GET", path: "/api/v1/accounts/:account_id/balance", errorShape: "kit", handler: withApiKey(showBalance) },
  { method: "GET", path: "/api/v1/accounts/:account_id/sender-ids", errorShape: "kit", handler: withApiKey(listSenderIds) },
  {
    method: "POST",
    path: "/api/v1/accounts/:account_id/sender-ids",
    errorShape: "kit",
    handler: withApiKey(requestSenderId, { restrictedTo: "owner" }),
  },
];
