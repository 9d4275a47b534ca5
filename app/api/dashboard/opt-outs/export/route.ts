import { dashboardRoute } from "@/lib/dashboard/dashboard-route";
import { accountIdOf } from "@/lib/dashboard/define-action";
import { csvDownload } from "@/lib/dashboard/csv-download";
import { csvLine } from "@/lib/csv";
import { listAllOptOuts } from "@/lib/opt-outs/opt-outs";
import { describeActors } from "@/lib/dashboard/list-audit-events";

export const dynamic = "force-dynamic";

/** The account's whole opt-out list as CSV: number, who added it (named as the audit log names them), when (the Opt-outs page's import reads it back). */
export const GET = dashboardRoute("optouts.manage", async (_request, user) => {
  const optOuts = await listAllOptOuts(accountIdOf(user));
  const actors = await describeActors(optOuts.map((optOut) => optOut.actor));
  return csvDownload("opt-outs", [
    csvLine(["number", "added_by", "added_at"]),
    ...optOuts.map((optOut) => csvLine([optOut.number, actors.get(optOut.actor) ?? optOut.actor, optOut.createdAt.toISOString()])),
  ]);
});
