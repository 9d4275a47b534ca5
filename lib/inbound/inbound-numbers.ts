// Inbound numbers: the long numbers and short codes on which accounts receive messages, each on one
// carrier or on all. A message is routed to the account holding its destination number on its
// carrier, and failing that to the one holding it on every carrier.
import { db } from "@/lib/db/client";
import type { SqlExecutor } from "@/lib/db/sql";
import { parseRows } from "@/lib/db/stores/shared/rows";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Operator } from "@/lib/carriers/operators";
import { parseMsisdn } from "@/lib/messages/msisdn";

const ALL_CARRIERS = "*";
const SHORT_CODE = /^\d{3,8}$/;
const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * One written form per number: a Zimbabwe mobile in any form becomes E.164, a short code stays its
 * digits, any other international number is kept as E.164 (with its "+", or added to a bare 9-15
 * digit number as carriers write source and destination addresses). Null when it is neither.
 */
export function normalizeInboundNumber(raw: string): string | null {
  const text = raw.trim().replace(/[\s-]/g, "");
  if (SHORT_CODE.test(text)) return text;
  const mobile = parseMsisdn(text);
  if (mobile.ok) return mobile.recipient.to;
  if (E164.test(text)) return text;
  if (/^[1-9]\d{8,14}$/.test(text)) return `+${text}`;
  return null;
}

/** An inbound message's address as stored: E.164 or a short code where it reads as one, otherwise as the carrier wrote it (a sender's name). */
export function inboundAddress(raw: string): string {
  return normalizeInboundNumber(raw) ?? raw.trim();
}

function notANumber(text: string): AppError {
  return new AppError("VALIDATION_ERROR", `"${text}" is neither an E.164 number nor a short code (3 to 8 digits)`, {
    fields: [{ field: "number", description: "must be an E.164 number or a short code of 3 to 8 digits" }],
  });
}

export type InboundNumberRow = { id: string; number: string; accountId: string; operator: string | null; assignedAt: Date };

export async function assignInboundNumber(input: {
  accountId: string;
  number: string;
  operator: Operator | null;
  actor: string;
}): Promise<InboundNumberRow> {
  const number = normalizeInboundNumber(input.number);
  if (!number) throw notANumber(input.number);
  // Nothing ties the row to an account in the schema: an unknown id would take the number's replies
  // to no inbox and out of the unrouted list alike.
  if (!(await db().account.findUnique({ where: { id: input.accountId }, select: { id: true } }))) {
    throw AppError.notFound("Account");
  }
  const scope = input.operator ?? ALL_CARRIERS;
  const held = await db().inboundNumber.findUnique({ where: { number_scope: { number, scope } } });
  if (held) {
    if (held.accountId === input.accountId) return held;
    const where = input.operator ? ` on ${input.operator}` : "";
    throw new AppError("CONFLICT", `${number} is already assigned to another account${where}`, {
      fields: [{ field: "number", description: `is already assigned to another account${where}` }],
    });
  }
  const row = await db().inboundNumber.create({ data: { number, accountId: input.accountId, operator: input.operator, scope } });
  await recordAuditEvent({
    accountId: input.accountId,
    actor: input.actor,
    action: "number.assigned",
    targetType: "inbound_number",
    targetId: row.id,
    data: { number, operator: input.operator },
  });
  return row;
}

/** Releases a number on one carrier, or every assignment of it when operator is undefined. */
export async function releaseInboundNumber(input: {
  number: string;
  operator?: Operator | null;
  actor: string;
}): Promise<InboundNumberRow[]> {
  const number = normalizeInboundNumber(input.number);
  if (!number) throw notANumber(input.number);
  const where = input.operator === undefined ? { number } : { number, scope: input.operator ?? ALL_CARRIERS };
  const released = await releaseAssignments(await db().inboundNumber.findMany({ where }), input.actor);
  if (released.length === 0) throw new AppError("NOT_FOUND", `${number} is not assigned`);
  return released;
}

/**
 * Releases one assignment as the releasing admin saw it: refused when it is gone (released, or the
 * number assigned afresh since), so a page loaded earlier never releases another account's number.
 */
export async function releaseInboundAssignment(input: { id: string; actor: string }): Promise<InboundNumberRow> {
  const [released] = await releaseAssignments(await db().inboundNumber.findMany({ where: { id: input.id } }), input.actor);
  if (!released) {
    throw new AppError("CONFLICT", "This assignment has changed since the page was loaded", {
      description: "It was released, or its number assigned again, meanwhile; reload the page to see the current assignments",
    });
  }
  return released;
}

/** Deletes each row still there and audits each deletion: a row another request deleted first is left out. */
async function releaseAssignments(rows: InboundNumberRow[], actor: string): Promise<InboundNumberRow[]> {
  const released: InboundNumberRow[] = [];
  for (const row of rows) {
    const { count } = await db().inboundNumber.deleteMany({ where: { id: row.id } });
    if (count === 0) continue;
    released.push(row);
    await recordAuditEvent({
      accountId: row.accountId,
      actor,
      action: "number.released",
      targetType: "inbound_number",
      targetId: row.id,
      data: { number: row.number, operator: row.operator },
    });
  }
  return released;
}

/** An account's number; an all-carrier one says on which carriers another account's own assignment takes its messages instead. */
export type AccountInboundNumber = InboundNumberRow & { carriersElsewhere: string[] };

export async function listInboundNumbers(accountId: string): Promise<AccountInboundNumber[]> {
  const rows = await db().inboundNumber.findMany({ where: { accountId }, orderBy: [{ number: "asc" }, { scope: "asc" }] });
  const allCarriers = rows.filter((row) => row.scope === ALL_CARRIERS).map((row) => row.number);
  const elsewhere =
    allCarriers.length === 0
      ? []
      : await db().inboundNumber.findMany({
          where: { number: { in: allCarriers }, accountId: { not: accountId }, scope: { not: ALL_CARRIERS } },
          orderBy: { scope: "asc" },
        });
  return rows.map((row) => ({
    ...row,
    carriersElsewhere:
      row.scope === ALL_CARRIERS ? elsewhere.filter((other) => other.number === row.number).map((other) => other.scope) : [],
  }));
}

/** The account a message to `number` on `operator` is routed to: the carrier's own assignment wins over an all-carrier one. */
export async function accountForDestination(executor: SqlExecutor, number: string, operator: string): Promise<string | null> {
  const rows = parseRows(
    await executor.all(`SELECT "accountId", "scope" FROM "InboundNumber" WHERE "number" = ? AND "scope" IN (?, ?)`, [
      number,
      operator,
      ALL_CARRIERS,
    ]),
    { accountId: "text", scope: "text" },
  );
  return (rows.find((row) => row.scope === operator) ?? rows[0])?.accountId ?? null;
}

export type AssignedNumber = InboundNumberRow & { accountName: string };

/** Every assigned number with its account's name, by number. */
export async function listAllInboundNumbers(): Promise<AssignedNumber[]> {
  const rows = await db().inboundNumber.findMany({ orderBy: [{ number: "asc" }, { scope: "asc" }] });
  const accounts = await db().account.findMany({
    where: { id: { in: [...new Set(rows.map((row) => row.accountId))] } },
    select: { id: true, name: true },
  });
  const names = new Map(accounts.map((account) => [account.id, account.name]));
  return rows.map((row) => ({ ...row, accountName: names.get(row.accountId) ?? row.accountId }));
}
