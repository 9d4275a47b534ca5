import { AppError } from "@/lib/errors";
import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { ledgerCsv, parseLedgerFilters } from "@/lib/dashboard/list-ledger";
import { getBalance } from "@/lib/ledger/get-balance";

export const dynamic = "force-dynamic";

/** The account's ledger by the balance page's filters as CSV, one row per entry, streamed a chunk at a time. */
export const GET = dashboardRoute("account.view", async (request, user) => {
  const { filters, problems } = parseLedgerFilters(Object.fromEntries(new URL(request.url).searchParams));
  if (problems.length > 0) throw AppError.validation(problems);
  if (!user.accountId) throw AppError.notFound("Account");
  const { currency } = await getBalance(user.accountId);
  const lines = ledgerCsv(user.accountId, currency, filters);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="tumira-ledger-${day}.csv"`,
      "cache-control": "no-store",
    },
  });
});
