// The Opt-outs page's reads: a page of the list and its recent changes, each actor shown as a person
// would name it (a member's email, a key's name) rather than as the id the rows record.
import { db } from "@/lib/db/client";
import { listOptOuts, OPT_OUT_ADDED, OPT_OUT_REMOVED } from "@/lib/opt-outs/opt-outs";

export const OPT_OUT_PAGE_SIZE = 100;
const RECENT_CHANGES = 50;

export type OptOutRow = { number: string; actor: string; createdAt: string };
export type OptOutChangeRow = { id: number; number: string; action: "added" | "removed"; actor: string; createdAt: string };

/** "user:<id>" → the member's email, "key:<id>" → "API key <name>", anything else as it is. */
async function actorNames(accountId: string, actors: string[]): Promise<(actor: string) => string> {
  const ids = (prefix: string) => [
    ...new Set(actors.filter((actor) => actor.startsWith(prefix)).map((actor) => actor.slice(prefix.length))),
  ];
  const [users, keys] = await Promise.all([
    db().user.findMany({ where: { accountId, id: { in: ids("user:") } }, select: { id: true, email: true } }),
    db().apiKey.findMany({ where: { accountId, id: { in: ids("key:") } }, select: { id: true, name: true } }),
  ]);
  const names = new Map<string, string>([
    ...users.map((user): [string, string] => [`user:${user.id}`, user.email]),
    ...keys.map((key): [string, string] => [`key:${key.id}`, `API key “${key.name}”`]),
  ]);
  return (actor) => names.get(actor) ?? (actor.startsWith("keyword:") ? `Reply "${actor.slice("keyword:".length)}"` : actor);
}

export async function listOptOutPage(
  accountId: string,
  cursor: string | null,
): Promise<{ rows: OptOutRow[]; nextCursor: string | null; changes: OptOutChangeRow[] }> {
  const [page, events] = await Promise.all([
    listOptOuts({ accountId, limit: OPT_OUT_PAGE_SIZE, cursor }),
    db().auditEvent.findMany({
      where: { accountId, action: { in: [OPT_OUT_ADDED, OPT_OUT_REMOVED] } },
      orderBy: { id: "desc" },
      take: RECENT_CHANGES,
    }),
  ]);
  const nameOf = await actorNames(accountId, [...page.optOuts.map((optOut) => optOut.actor), ...events.map((event) => event.actor)]);
  return {
    rows: page.optOuts.map((optOut) => ({ number: optOut.number, actor: nameOf(optOut.actor), createdAt: optOut.createdAt.toISOString() })),
    nextCursor: page.nextCursor,
    changes: events.map((event) => ({
      id: event.id,
      number: event.targetId,
      action: event.action === OPT_OUT_ADDED ? "added" : "removed",
      actor: nameOf(event.actor),
      createdAt: event.createdAt.toISOString(),
    })),
  };
}
