// The inbound sandbox: a test key asks for a message "from a handset" to one of its account's
// numbers. The request is queued in the database, and a process running the carrier connections
// claims it and has its test SMSC simulator originate it as a real deliver_sm over the simulated
// carrier bind, so it is stored by the path a carrier's message takes.
import { db, sql } from "@/lib/db/client";
import { parseRows } from "@/lib/db/stores/shared/rows";
import { AppError } from "@/lib/errors";
import { parseMsisdn } from "@/lib/messages/msisdn";
import { MAX_SEGMENTS, segmentMessage } from "@/lib/messages/segments";
import { accountForDestination, normalizeInboundNumber } from "./inbound-numbers";
import { isStorableText, NOT_TEXT_DESCRIPTION } from "@/lib/text";

export type InboundSimulationRow = { id: string; accountId: string; from: string; to: string; body: string; operator: string };

export async function queueInboundSimulation(input: {
  accountId: string;
  from: string;
  to: string;
  message: string;
}): Promise<InboundSimulationRow> {
  const fields: { field: string; description: string }[] = [];
  const from = parseMsisdn(input.from);
  if (!from.ok) fields.push({ field: "from", description: from.reason });
  const to = normalizeInboundNumber(input.to);
  if (!to) fields.push({ field: "to", description: "must be an E.164 number or a short code" });
  else if (from.ok) {
    // The simulated message is routed as a carrier's would be, so `to` must reach this account on
    // `from`'s carrier: another account's assignment on that carrier wins over this one's on all.
    const operator = from.recipient.operator;
    const routedTo = await accountForDestination(sql(), to, operator);
    if (routedTo !== input.accountId) {
      const numbers = await db().inboundNumber.findMany({ where: { accountId: input.accountId, number: to } });
      fields.push({
        field: "to",
        description: numbers.length > 0 ? `is not one of the account's numbers on ${operator}` : "is not one of the account's numbers",
      });
    }
  }
  // Spaces and line breaks alone are no message, as for a send.
  if (!input.message.trim()) fields.push({ field: "message", description: "cannot be blank" });
  else if (!isStorableText(input.message)) fields.push({ field: "message", description: NOT_TEXT_DESCRIPTION });
  else if (segmentMessage(input.message).segments > MAX_SEGMENTS)
    fields.push({ field: "message", description: `must fit in ${MAX_SEGMENTS} parts` });
  if (fields.length > 0 || !from.ok || !to) throw AppError.validation(fields);
  return db().inboundSimulation.create({
    data: { accountId: input.accountId, from: from.recipient.to, to, body: input.message, operator: from.recipient.operator },
  });
}

/** Claims up to `limit` queued simulations: each is returned to one process only. */
export async function claimInboundSimulations(limit = 20): Promise<InboundSimulationRow[]> {
  const rows = await sql().all(
    `DELETE FROM "InboundSimulation" WHERE "id" IN (SELECT "id" FROM "InboundSimulation" ORDER BY "createdAt" LIMIT ?)
     RETURNING "id", "accountId", "from", "to", "body", "operator"`,
    [limit],
  );
  return parseRows(rows, { id: "text", accountId: "text", from: "text", to: "text", body: "text", operator: "text" });
}
