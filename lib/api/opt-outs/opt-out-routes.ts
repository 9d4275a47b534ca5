// The opt-out endpoints: an account's list of numbers its sends never go to. Kit error shape. Test and
// live keys of an account share its one list: a number that opted out did so from the account.
import type { ApiRoute } from "@/lib/api/route";
import { keyActor, withApiKey, type AuthedContext } from "@/lib/api/auth/with-api-key";
import { type ApiResponse, envelope } from "@/lib/api/respond";
import { parseJsonRequest } from "@/lib/api/parse-request";
import { AppError } from "@/lib/errors";
import { addOptOut, listOptOuts, MAX_OPT_OUT_PAGE, removeOptOut } from "@/lib/opt-outs/opt-outs";
import { addOptOutRequestSchema, serializeOptOut, serializeOptOutPage } from "./opt-out-schemas";

const DEFAULT_PAGE = 100;

function pageLimit(raw: string | null): number {
  if (raw === null) return DEFAULT_PAGE;
  const limit = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= MAX_OPT_OUT_PAGE)) {
    throw AppError.validation([{ field: "limit", description: `must be a whole number from 1 to ${MAX_OPT_OUT_PAGE}` }]);
  }
  return limit;
}

async function listAccountOptOuts(context: AuthedContext): Promise<ApiResponse> {
  const query = new URL(context.request.url).searchParams;
  const page = await listOptOuts({ accountId: context.auth.accountId, limit: pageLimit(query.get("limit")), cursor: query.get("cursor") });
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
