import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { guardPage, requireAnyPermission } from "@/lib/auth/require-permission";
import { can } from "@/lib/auth/permissions";
import { paramsOf } from "@/lib/dashboard/filters";
import {
  getConversation,
  hasConversation,
  listConversations,
  listPlatformInbound,
  parseInboxFilters,
  type PlatformInboundRow,
} from "@/lib/dashboard/inbox";
import { listInboundNumbers, type AccountInboundNumber } from "@/lib/inbound/inbound-numbers";
import { carrierName, encodingName } from "@/lib/messages/vocabulary";
import { PageHeader } from "@/components/ui/page-header";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { DataTable, Pager, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input, errorFor } from "@/components/ui/field";
import { FilterForm, withParams } from "@/components/ui/filter-form";
import { MessageStatus } from "@/components/status-badge";
import { Time } from "@/components/time";
import { SimulateReplyForm } from "./simulate-reply-form";

export const metadata: Metadata = { title: "Inbox" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function InboxPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await guardPage(() => requireAnyPermission(["inbound.view", "platform.inbound"]));
  const params = paramsOf(await searchParams);
  if (user.accountId && can(user.role, "inbound.view")) return <AccountInbox accountId={user.accountId} params={params} />;
  const unrouted = params.unrouted === "1" && can(user.role, "inbound.unrouted");
  return <PlatformInbound unrouted={unrouted} canSeeUnrouted={can(user.role, "inbound.unrouted")} params={params} />;
}

/** The carriers on which a number's messages reach the account. */
function carriersOf(row: AccountInboundNumber): string {
  if (row.operator) return carrierName(row.operator);
  if (row.carriersElsewhere.length === 0) return "All carriers";
  return `All carriers but ${row.carriersElsewhere.map(carrierName).join(", ")}`;
}

async function AccountInbox({ accountId, params }: { accountId: string; params: Record<string, string | undefined> }) {
  const { filters, problems } = parseInboxFilters(params);
  // A search for a number that wrote opens its conversation; for one that never did, the field says so.
  const found = filters.find !== undefined && (await hasConversation(accountId, filters.find));
  if (found) redirect(withParams("/dashboard/inbox", { with: filters.find }, {}));
  const number = params.with;
  const [numbers, conversations, conversation] = await Promise.all([
    listInboundNumbers(accountId),
    listConversations(accountId, { cursor: filters.cursor }),
    number ? getConversation(accountId, number) : Promise.resolve(null),
  ]);
  const findError = errorFor(problems, "find");
  // The list's links keep the open conversation and the page, not a search already answered.
  const listParams = { with: number, cursor: filters.cursor };
  return (
    <>
      <PageHeader
        title="Inbox"
        description="Messages people sent to your numbers and short codes, one conversation per phone number: what you sent it and what it sent you, in time order."
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-1">
          <Card>
            <CardHeader
              title="Your numbers"
              description="Assigned by Tumira staff; replies to them arrive here and through GET /api/v1/inbound."
            />
            <CardBody>
              {numbers.length === 0 ? (
                <p className="text-sm text-slate-500" data-testid="no-numbers">
                  No inbound numbers yet. Ask Tumira support to assign one to your account.
                </p>
              ) : (
                <ul className="space-y-1 text-sm" data-testid="inbound-numbers">
                  {numbers.map((row) => (
                    <li key={row.id} className="flex items-center justify-between gap-2">
                      <span className="font-mono">{row.number}</span>
                      <Badge tone="gray">{carriersOf(row)}</Badge>
                    </li>
                  ))}
                </ul>
              )}
            </CardBody>
          </Card>
          <Card>
            <CardHeader title="Conversations" description="Latest first." />
            <FilterForm
              narrow
              submitLabel="Find"
              problems={problems.filter((problem) => problem.field !== "find").map((problem) => problem.description)}
            >
              <Field
                id="inbox-find"
                label="Number or sender"
                error={findError}
                hint={filters.find !== undefined && <span data-testid="inbox-find-none">No messages from {filters.find}.</span>}
              >
                <Input
                  id="inbox-find"
                  name="find"
                  placeholder="0771 234 567 or a sender's name"
                  defaultValue={params.find}
                  invalid={!!findError}
                />
              </Field>
            </FilterForm>
            {conversations.rows.length === 0 ? (
              <EmptyState title="No messages received yet" description="A reply to one of your numbers shows here." />
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="conversations">
                {conversations.rows.map((row) => (
                  <li key={row.number}>
                    <Link
                      href={withParams("/dashboard/inbox", listParams, { with: row.number })}
                      className={`block px-5 py-3 hover:bg-slate-50 ${conversation?.number === row.number ? "bg-slate-50" : ""}`}
                      data-testid="conversation-link"
                    >
                      <div className="flex items-center justify-between gap-2">
                        <span className="font-mono text-sm font-medium text-slate-900">{row.number}</span>
                        <span className="text-xs text-slate-500">
                          <Time value={row.lastAt.toISOString()} />
                        </span>
                      </div>
                      <p className="mt-0.5 flex items-center gap-2 text-sm text-slate-600">
                        {row.lastMode === "test" && <Badge tone="violet">Test</Badge>}
                        <span className="truncate">{row.lastBody}</span>
                      </p>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
            {(filters.cursor || conversations.nextCursor) && (
              <Pager
                firstHref={filters.cursor ? withParams("/dashboard/inbox", listParams, { cursor: undefined }) : undefined}
                firstLabel="Newest"
                nextHref={
                  conversations.nextCursor ? withParams("/dashboard/inbox", listParams, { cursor: conversations.nextCursor }) : undefined
                }
                nextLabel="Older"
              />
            )}
          </Card>
          {numbers.length > 0 && (
            <Card>
              <CardHeader
                title="Sandbox"
                description="The SMSC simulator sends a message to one of your numbers over its simulated carrier bind, as POST /api/v1/inbound/simulate does with a test key."
              />
              <CardBody>
                <SimulateReplyForm numbers={numbers.map((row) => row.number)} />
              </CardBody>
            </Card>
          )}
        </div>
        {/* On a phone the chosen conversation comes first, where the tap that opened it can see it. */}
        <Card className={`lg:col-span-2 ${number ? "order-first lg:order-none" : ""}`} data-testid="conversation-card">
          {!number ? (
            <EmptyState title="Pick a conversation" description="Choose a phone number to see everything exchanged with it." />
          ) : !conversation ? (
            <EmptyState title="Not a phone number" description={`“${number}” is not a phone number or short code.`} />
          ) : (
            <>
              <CardHeader title={<span className="font-mono">{conversation.number}</span>} description="Oldest first" />
              <CardBody>
                {conversation.entries.length === 0 ? (
                  <p className="text-sm text-slate-500">Nothing exchanged with this number.</p>
                ) : (
                  <ol className="space-y-3" data-testid="conversation">
                    {conversation.entries.map((entry) => (
                      <li
                        key={`${entry.direction}-${entry.id}`}
                        className={`flex ${entry.direction === "out" ? "justify-end" : "justify-start"}`}
                        data-testid={entry.direction === "in" ? "conversation-in" : "conversation-out"}
                      >
                        <div
                          className={`max-w-[80%] rounded-lg px-3 py-2 text-sm ${
                            entry.direction === "out" ? "bg-brand-50 text-slate-900" : "bg-slate-100 text-slate-900"
                          }`}
                        >
                          <p className="wrap-anywhere whitespace-pre-wrap">{entry.body}</p>
                          <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
                            <Time value={entry.at.toISOString()} />
                            {entry.direction === "in" ? (
                              <>
                                <span>to {entry.to}</span>
                                <span>{carrierName(entry.operator)}</span>
                                {!entry.complete && <Badge tone="amber">Parts missing</Badge>}
                                {entry.mode === "test" && <Badge tone="violet">Test</Badge>}
                              </>
                            ) : (
                              <>
                                <span>from {entry.from}</span>
                                <Link href={`/dashboard/messages/${entry.id}`} className="hover:underline">
                                  <MessageStatus
                                    status={entry.status}
                                    deliveredAt={entry.deliveredAt?.toISOString() ?? null}
                                    sendAt={entry.sendAt?.toISOString() ?? null}
                                  />
                                </Link>
                                {entry.test && <Badge tone="violet">Test</Badge>}
                              </>
                            )}
                          </p>
                        </div>
                      </li>
                    ))}
                  </ol>
                )}
              </CardBody>
            </>
          )}
        </Card>
      </div>
    </>
  );
}

function platformColumns(unrouted: boolean): Column<PlatformInboundRow>[] {
  return [
    { key: "received", header: "Received", nowrap: true, cell: (row) => <Time value={row.receivedAt.toISOString()} /> },
    {
      key: "account",
      header: "Account",
      className: "font-medium text-slate-900",
      cell: (row) => row.accountName ?? <Badge tone="amber">Unrouted</Badge>,
    },
    { key: "from", header: "From", nowrap: true, cell: (row) => row.from },
    { key: "to", header: "To", nowrap: true, cell: (row) => row.to },
    {
      key: "carrier",
      header: "Carrier",
      cell: (row) => (
        <>
          {carrierName(row.operator)}
          {row.mode === "test" && (
            <Badge tone="violet" className="ml-1">
              Test
            </Badge>
          )}
        </>
      ),
    },
    {
      key: "parts",
      header: "Parts",
      numeric: true,
      cell: (row) => (
        <>
          {row.segments} {encodingName(row.encoding)}
          {!row.complete && <span className="ml-1 text-amber-700">(incomplete)</span>}
        </>
      ),
    },
    ...(unrouted ? [{ key: "body", header: "Message", className: "break-words", cell: (row: PlatformInboundRow) => row.body }] : []),
  ];
}

async function PlatformInbound({
  unrouted,
  canSeeUnrouted,
  params,
}: {
  unrouted: boolean;
  canSeeUnrouted: boolean;
  params: Record<string, string | undefined>;
}) {
  // A cursor this page did not give reads as the first page.
  const { rows, nextCursor } = await listPlatformInbound({ unrouted, cursor: params.cursor });
  return (
    <>
      <PageHeader
        title={unrouted ? "Unrouted inbound messages" : "Inbound messages"}
        description={
          unrouted ? (
            <>
              Messages to numbers no account holds. Assign the number to an account under <em>Inbound numbers</em> on the{" "}
              <Link href="/dashboard/admin" className="font-medium text-brand-700 hover:underline">
                Accounts
              </Link>{" "}
              page (or with npm run cli -- numbers:assign) for its next messages to reach it.
            </>
          ) : (
            "Every account's inbound traffic, newest first. Read-only; message bodies stay private."
          )
        }
        actions={
          canSeeUnrouted ? (
            <Link
              href={unrouted ? "/dashboard/inbox" : "/dashboard/inbox?unrouted=1"}
              className="text-sm font-medium text-brand-700 hover:underline"
              data-testid="unrouted-toggle"
            >
              {unrouted ? "All inbound messages" : "Unrouted messages"}
            </Link>
          ) : undefined
        }
      />
      <Card>
        <DataTable
          columns={platformColumns(unrouted)}
          rows={rows}
          rowKey={(row) => row.id}
          rowAttributes={() => ({ "data-testid": "inbound-row" })}
          empty={
            unrouted ? (
              <EmptyState title="No unrouted messages" description="Every inbound message so far reached the account holding its number." />
            ) : (
              <EmptyState title="No inbound messages" description="Messages carriers deliver to Tumira's numbers show here." />
            )
          }
          pagination={{
            firstHref: params.cursor ? withParams("/dashboard/inbox", params, { cursor: undefined }) : undefined,
            nextHref: nextCursor ? withParams("/dashboard/inbox", params, { cursor: nextCursor }) : undefined,
          }}
        />
      </Card>
    </>
  );
}
