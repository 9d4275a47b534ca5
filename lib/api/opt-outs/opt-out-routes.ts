// The opt-out endpoints: an account's list of numbers its sends never go to. Kit error shape. Test and
// live keys of an account share its one list: a number that opted out did so from the account.
import type { ApiRoute } from "@/lib/api/route";
import { keyActor, withApiKey, type AuthedContext } from "@/lib/api/auth/with-api-key";
import { type ApiResponse, envelope } from "@/lib/api/respond";
import { parseJsonRequest, readQueryFields } from "@/lib/api/parse-request";
import { AppError } from "@/lib/errors";
import { addOptOut, listOptOuts, removeOptOut } from "@/lib/opt-outs/opt-outs";
import {
  addOptOutRequestSchema,
  DEFAULT_OPT_OUT_PAGE,
  optOutListQuerySchema,
  serializeOptOut,
  serializeOptOutPage,
} from "./opt-out-schemas";

async function listAccountOptOuts(context: AuthedContext): Promise<ApiResponse> {
  const { values, fields } = readQueryFields(context.request.url, optOutListQuerySchema.shape);
  if (fields.length > 0) throw AppError.validation(fields);
  const limit = values.limit ? Number(values.limit) : DEFAULT_OPT_OUT_PAGE;
  const page = await listOptOuts({ accountId: context.auth.accountId, limit, cursor: values.cursor });
  return envelope(200, "Opt-outs retrieved", serializeOptOutPage(page));
}

async function addAccountOptOut(context: AuthedContext): Promise<ApiResponse> {
  const { number } = parseJsonRequest(context, addOptOutRequestSchema);
  const { optOut, created } = await addOptOut({ accountId: context.auth.accountId, number, actor: keyActor(context.auth) });
  return created
    ? envelope(201, "Opt-out added", serializeOptOut(optOut))
    : envelope(200, "Already on the opt-out list", serializeOptOut(optOut));
}

async function removeAccountOptOut(context: AuthedContext): Promise<ApiResponse> {
  await removeOptOut({ accountId: context.auth.accountId, number: context.params.number, actor: keyActor(context.auth) });
  return envelope(200, "Opt-out removed");
}

export const optOutRoutes: ApiRoute[] = [
  { method: "GET", path: "/api/v1/opt-outs", errorShape: "kit", handler: withApiKey(listAccountOptOuts) },
  { method: "POST", path: "/api/v1/opt-outs", errorShape: "kit", handler: withApiKey(addAccountOptOut) },
  { method: "DELETE", path: "/api/v1/opt-outs/:number", errorShape: "kit", handler: withApiKey(removeAccountOptOut) },
];
