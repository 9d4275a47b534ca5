import { AppError } from "@/lib/errors";
import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { csvDownload } from "@/lib/dashboard/csv-download";
import { ledgerCsv, parseLedgerFilters } from "@/lib/dashboard/list-ledger";
import { getBalance } from "@/lib/ledger/get-balance";

export const dynamic = "force-dynamic";

/** The account's ledger by the balance page's filters as CSV, one row per entry, streamed a chunk at a time. */
export const GET = dashboardRoute("account.view", async (request, user) => {
  const { filters, problems } = parseLedgerFilters(Object.fromEntries(new URL(request.url).searchParams));
  if (problems.length > 0) throw AppError.validation(problems);
  if (!user.accountId) throw AppError.notFound("Account");
  const { currency } = await getBalance(user.accountId);
  return csvDownload("ledger", ledgerCsv(user.accountId, currency, filters));
});
