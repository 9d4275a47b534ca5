import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { accountIdOf } from "@/lib/dashboard/define-action";
import { listAllOptOuts } from "@/lib/opt-outs/opt-outs";

export const dynamic = "force-dynamic";

/** A field a spreadsheet never runs as a formula (a leading = @ or sign before a non-digit is defused). */
function csvField(value: string): string {
  const safe = /^[=@\t\r]|^[+-][^0-9]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The account's whole opt-out list as CSV: number, who added it, when. */
export const GET = dashboardRoute("optouts.manage", async (_request, user) => {
  const optOuts = await listAllOptOuts(accountIdOf(user));
  const lines = [
    "number,added_by,added_at",
    ...optOuts.map((optOut) => [optOut.number, optOut.actor, optOut.createdAt.toISOString()].map(csvField).join(",")),
  ];
  const day = new Date().toISOString().slice(0, 10);
  return new Response(lines.join("\r\n") + "\r\n", {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="tumira-opt-outs-${day}.csv"`,
      "cache-control": "no-store",
    },
  });
});
