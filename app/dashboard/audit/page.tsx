import type { Metadata } from "next";
import { requirePagePermission } from "@/lib/auth/require-permission";
import { auditScopeOf } from "@/lib/dashboard/audit-scope";
import { listAuditActions, listAuditEvents, parseAuditFilters, type AuditRow } from "@/lib/dashboard/list-audit-events";
import { paramsOf } from "@/lib/dashboard/filters";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { FilterForm, withParams } from "@/components/ui/filter-form";
import { buttonClass } from "@/components/ui/button";
import { Time } from "@/components/time";

export const metadata: Metadata = { title: "Audit log" };

function auditColumns(allAccounts: boolean): Column<AuditRow>[] {
  return [
    { key: "time", header: "Time", nowrap: true, cell: (row) => <Time value={row.createdAt.toISOString()} /> },
    ...(allAccounts ? [{ key: "account", header: "Account", cell: (row: AuditRow) => row.accountName }] : []),
    { key: "actor", header: "Actor", cell: (row) => row.actor },
    { key: "action", header: "Action", nowrap: true, cell: (row) => <span className="font-mono text-xs">{row.action}</span> },
    { key: "target", header: "Target", cell: (row) => <span className="font-mono text-xs">{row.target}</span> },
    { key: "details", header: "Details", className: "max-w-md text-slate-600", cell: (row) => row.details || "—" },
  ];
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePagePermission("audit.view");
  const scope = auditScopeOf(user);
  const params = paramsOf(await searchParams);
  const { filters, problems } = parseAuditFilters(params);
  const [events, actions] = await Promise.all([listAuditEvents(scope, filters), listAuditActions(scope)]);
  // The filters the page applied, not the raw query: a value named as bad above the list is left out
  // of the export as it is of the list, rather than turning the download into an error.
  const exportHref = withParams(
    "/api/dashboard/audit/export",
    { actor: filters.actor, action: filters.action, from: filters.from, to: filters.to },
    {},
  );
  return (
    <>
      <PageHeader
        title="Audit log"
        description={
          "accountId" in scope
            ? "Who created and revoked keys, added and removed members, requested sender ids and changed the balance, and when."
            : "Every account's audited changes, and the platform's own: accounts, credits, sender id reviews, carrier pauses."
        }
      />
      <Card>
        <CardHeader
          title="Events"
          description="Newest first."
          actions={
            <a href={exportHref} className={buttonClass("secondary")} data-testid="audit-export" download>
              Export CSV
            </a>
          }
        />
        <FilterForm resetHref="/dashboard/audit" problems={problems.map((problem) => problem.description)}>
          <Field id="audit-actor" label="Actor">
            <Input id="audit-actor" name="actor" placeholder="email, key name or the CLI" defaultValue={filters.actor} />
          </Field>
          <Field id="audit-action" label="Action">
            <Select id="audit-action" name="action" defaultValue={filters.action ?? ""}>
              <option value="">All actions</option>
              {actions.map((action) => (
                <option key={action} value={action}>
                  {action}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="audit-from" label="From">
            <Input id="audit-from" name="from" type="date" defaultValue={filters.from} />
          </Field>
          <Field id="audit-to" label="To">
            <Input id="audit-to" name="to" type="date" defaultValue={filters.to} />
          </Field>
        </FilterForm>
        <DataTable
          columns={auditColumns(!("accountId" in scope))}
          rows={events.rows}
          rowKey={(row) => String(row.id)}
          rowAttributes={(row) => ({ "data-testid": "audit-row", "data-action": row.action })}
          empty={
            <EmptyState
              icon="history"
              title="No events match"
              description="Changes to keys, members, sender ids and balances appear here."
            />
          }
          pagination={{
            firstHref: filters.before ? withParams("/dashboard/audit", params, { before: undefined }) : undefined,
            firstLabel: "Newest",
            nextHref: events.nextBefore ? withParams("/dashboard/audit", params, { before: String(events.nextBefore) }) : undefined,
            nextLabel: "Older events",
          }}
        />
      </Card>
    </>
  );
}
