// The audit log: who did what to keys, members, sender ids, balances and carriers. Owners read their
// account's events, platform admins every account's. Actors are stored as "user:<id>", "key:<id>",
// "cli" or "system" and shown by what a person recognises (an email, a key's name and prefix).
import { z } from "zod";
import { csvLine } from "@/lib/csv";
import { db } from "@/lib/db/client";
import { containsText } from "@/lib/db/contains-text";
import { formatAmount, formatMoney } from "@/lib/money";
import { dayParam, dayRange, parseFilters, type ParsedFilters } from "./filters";

export const AUDIT_PAGE_SIZE = 50;
const EXPORT_CHUNK = 500;

const auditFilterFields = {
  actor: z.string().max(254, "at most 254 characters"),
  action: z.string().regex(/^[a-z_]+\.[a-z_]+$/, "choose one of the listed actions"),
  from: dayParam,
  to: dayParam,
  before: z.coerce.number("this page link is not valid; start from the newest").int().positive(),
};

const auditFilterLabels = { actor: "Actor", action: "Action", from: "From", to: "To", before: "Page" };

export type AuditFilters = ParsedFilters<typeof auditFilterFields>["filters"];

export function parseAuditFilters(params: Record<string, string | undefined>): ParsedFilters<typeof auditFilterFields> {
  return parseFilters(auditFilterFields, auditFilterLabels, params, { dayRange: ["from", "to"] });
}

/** Whose events a reader sees: one account's, or (platform admins) every account's. */
export type AuditScope = { accountId: string } | { allAccounts: true };

/** What the log and its export show in the account column for an event of no account (a carrier pause, a platform-wide rate). */
export const PLATFORM_ACCOUNT_LABEL = "Platform";

export type AuditRow = {
  id: number;
  createdAt: Date;
  /** The account's name, or PLATFORM_ACCOUNT_LABEL for a platform event. */
  accountName: string;
  actor: string;
  action: string;
  target: string;
  details: string;
};

type StoredEvent = {
  id: number;
  accountId: string | null;
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  data: string;
  createdAt: Date;
};

const scopeWhere = (scope: AuditScope) => ("accountId" in scope ? { accountId: scope.accountId } : {});

/** The actors that are no user and no key, by their stored string and the words the log shows for them. */
const NAMED_ACTORS = { cli: "the CLI", system: "Tumira" };

/**
 * The stored actor strings a free-text actor filter stands for, ignoring case as the log reads them:
 * emails (of the account's members and of platform staff) and key names or prefixes containing it,
 * and "the CLI" or "Tumira".
 */
async function actorsMatching(text: string, scope: AuditScope): Promise<string[]> {
  const [users, keys] = await Promise.all([
    // An account's events name its members and the platform staff who acted on it (an admin's credit).
    db().user.findMany({
      where: { email: containsText(text), ...("accountId" in scope ? { OR: [scopeWhere(scope), { accountId: null }] } : {}) },
      select: { id: true },
      take: 200,
    }),
    db().apiKey.findMany({
      where: { OR: [{ name: containsText(text) }, { tokenPrefix: containsText(text) }], ...scopeWhere(scope) },
      select: { id: true },
      take: 200,
    }),
  ]);
  const lowered = text.toLowerCase();
  const named = Object.entries(NAMED_ACTORS)
    .filter(([stored, shown]) => stored.includes(lowered) || shown.toLowerCase().includes(lowered))
    .map(([stored]) => stored);
  return [...users.map((user) => `user:${user.id}`), ...keys.map((key) => `key:${key.id}`), ...named];
}

async function whereOf(scope: AuditScope, filters: AuditFilters) {
  const createdAt = dayRange(filters.from, filters.to);
  return {
    ...scopeWhere(scope),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.actor ? { actor: { in: await actorsMatching(filters.actor, scope) } } : {}),
    ...(createdAt ? { createdAt } : {}),
  };
}

/**
 * Stored actor strings in words: "owner@acme.co.zw", "key Production (tmr_live_AbC…)", "the CLI",
 * "Tumira". The audit log and the ledger's export name actors alike.
 */
export async function describeActors(actors: string[]): Promise<Map<string, string>> {
  const ids = (kind: string) => [
    ...new Set(actors.filter((actor) => actor.startsWith(`${kind}:`)).map((actor) => actor.slice(kind.length + 1))),
  ];
  const [users, keys] = await Promise.all([
    db().user.findMany({ where: { id: { in: ids("user") } }, select: { id: true, email: true } }),
    db().apiKey.findMany({ where: { id: { in: ids("key") } }, select: { id: true, name: true, tokenPrefix: true } }),
  ]);
  const names = new Map<string, string>(Object.entries(NAMED_ACTORS));
  for (const user of users) names.set(`user:${user.id}`, user.email);
  for (const key of keys) names.set(`key:${key.id}`, key.tokenPrefix ? `key ${key.name} (${key.tokenPrefix}…)` : `key ${key.name}`);
  return names;
}

/** The recorded data fields holding money, in ten-thousandths of the account's currency. */
const MONEY_FIELDS = new Set(["amount", "threshold", "pricePerSegment"]);

/**
 * Details without internal ids or anything secret-shaped: the recorded data as "name: value" pairs,
 * money in the account's currency ("amount: USD 25.50"; a platform-wide rate has no account, so
 * its price reads as a plain amount).
 */
function describeData(data: string, currency: string | null): string {
  const parsed: unknown = (() => {
    try {
      return JSON.parse(data);
    } catch {
      return {};
    }
  })();
  if (!parsed || typeof parsed !== "object") return "";
  return (
    Object.entries(parsed)
      // An empty value (a sender id added without a stated use) says nothing: left out, not "useCase: ".
      .filter(([, value]) => value !== null && value !== undefined && value !== "" && typeof value !== "object")
      .map(([name, value]) => `${name}: ${MONEY_FIELDS.has(name) ? describeMoney(String(value), currency) : String(value)}`)
      .join(", ")
  );
}

function describeMoney(stored: string, currency: string | null): string {
  if (!/^-?\d+$/.test(stored)) return stored;
  return currency ? formatMoney(BigInt(stored), currency) : formatAmount(BigInt(stored));
}

async function toRows(events: StoredEvent[]): Promise<AuditRow[]> {
  const accountIds = [...new Set(events.map((event) => event.accountId).filter((id): id is string => id !== null))];
  const [actors, accounts] = await Promise.all([
    describeActors(events.map((event) => event.actor)),
    db().account.findMany({ where: { id: { in: accountIds } }, select: { id: true, name: true, currency: true } }),
  ]);
  const accountsById = new Map(accounts.map((account) => [account.id, account]));
  return events.map((event) => ({
    id: event.id,
    createdAt: event.createdAt,
    accountName: event.accountId ? (accountsById.get(event.accountId)?.name ?? event.accountId) : PLATFORM_ACCOUNT_LABEL,
    actor: actors.get(event.actor) ?? event.actor,
    action: event.action,
    target: `${event.targetType} ${event.targetId}`,
    details: describeData(event.data, event.accountId ? (accountsById.get(event.accountId)?.currency ?? null) : null),
  }));
}

export async function listAuditEvents(scope: AuditScope, filters: AuditFilters): Promise<{ rows: AuditRow[]; nextBefore: number | null }> {
  const where = await whereOf(scope, filters);
  const events = await db().auditEvent.findMany({
    where: { ...where, ...(filters.before ? { id: { lt: filters.before } } : {}) },
    orderBy: { id: "desc" },
    take: AUDIT_PAGE_SIZE + 1,
  });
  const page = events.slice(0, AUDIT_PAGE_SIZE);
  return { rows: await toRows(page), nextBefore: events.length > AUDIT_PAGE_SIZE ? page[page.length - 1].id : null };
}

/** The actions recorded in the scope, for the filter's choices. */
export async function listAuditActions(scope: AuditScope): Promise<string[]> {
  const actions = await db().auditEvent.findMany({ where: scopeWhere(scope), distinct: ["action"], select: { action: true } });
  return actions.map((row) => row.action).sort();
}

const CSV_HEADER = ["time", "account", "actor", "action", "target", "details"];

/** Every event the filters select (paging aside), newest first, as CSV lines read a chunk at a time. */
export async function* exportAuditEvents(scope: AuditScope, filters: AuditFilters): AsyncGenerator<string> {
  yield csvLine(CSV_HEADER);
  const where = await whereOf(scope, filters);
  let before = filters.before;
  for (;;) {
    const events = await db().auditEvent.findMany({
      where: { ...where, ...(before ? { id: { lt: before } } : {}) },
      orderBy: { id: "desc" },
      take: EXPORT_CHUNK,
    });
    if (events.length === 0) return;
    const rows = await toRows(events);
    yield rows
      .map((row) => csvLine([row.createdAt.toISOString(), row.accountName, row.actor, row.action, row.target, row.details]))
      .join("");
    if (events.length < EXPORT_CHUNK) return;
    before = events[events.length - 1].id;
  }
}
