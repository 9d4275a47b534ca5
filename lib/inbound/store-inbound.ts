// Stores mobile-originated messages: a whole one at once, a concatenated one part by part until its
// last part completes it (or the reassembly timeout stores what came, marked incomplete). Each PDU
// is stored in one transaction before the carrier's deliver_sm_resp is sent, and a PDU whose
// identity (pduKey) was already stored within the dedupe window is a redelivery: acknowledged, not
// stored again.
import { sql } from "@/lib/db/client";
import { toDbTime, type SqlExecutor } from "@/lib/db/sql";
import { parseOneOf, parseRows, type ParsedRow } from "@/lib/db/stores/shared/rows";
import { timeOrderedUuid } from "@/lib/model/ids";
import { decodeUserData, encodingOfDataCoding, type MobileOriginated } from "@/lib/smpp/mobile-originated";
import { accountForDestination, inboundAddress } from "./inbound-numbers";
import { inboundModes, onInboundStored, type InboundMode, type StoredInboundMessage } from "./inbound-listeners";

/**
 * Identical PDUs (same carrier, addresses, esm_class, data_coding and user data, UDH included) this
 * close together are one PDU sent twice. Keys are bucketed by this window and the previous bucket is
 * checked too, so a redelivery is caught within 10 to 20 minutes of the first copy.
 */
export const DEDUPE_WINDOW_MS = 10 * 60_000;

export type StoreOutcome = { kind: "stored"; message: StoredInboundMessage } | { kind: "duplicate" } | { kind: "held" };

function pduKeys(operator: string, identity: string, at: Date): [string, string] {
  const bucket = Math.floor(at.getTime() / DEDUPE_WINDOW_MS);
  return [`${operator}:${identity}@${bucket}`, `${operator}:${identity}@${bucket - 1}`];
}

async function insertMessage(tx: SqlExecutor, message: StoredInboundMessage, pduKey: string): Promise<boolean> {
  const changed = await tx.run(
    `INSERT INTO "InboundMessage" ("id", "accountId", "from", "to", "body", "operator", "encoding", "segments", "complete", "mode", "pduKey", "receivedAt", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("pduKey") DO NOTHING`,
    [
      message.id,
      message.accountId,
      message.from,
      message.to,
      message.body,
      message.operator,
      message.encoding,
      message.segments,
      message.complete,
      message.mode,
      pduKey,
      toDbTime(message.receivedAt),
      toDbTime(message.receivedAt),
    ],
  );
  return changed > 0;
}

const PART_ROW = {
  id: "text",
  pduKey: "text",
  partNumber: "integer",
  total: "integer",
  dataCoding: "integer",
  payload: "text",
  from: "text",
  to: "text",
  operator: "text",
  mode: "text",
  receivedAt: "time",
} as const;

type PartRow = Omit<ParsedRow<typeof PART_ROW>, "mode"> & { mode: InboundMode };

/** The group's parts not yet in a message, lowest part number first. */
async function readWaitingParts(tx: SqlExecutor, groupKey: string): Promise<PartRow[]> {
  const rows = await tx.all(
    `SELECT "id", "pduKey", "partNumber", "total", "dataCoding", "payload", "from", "to", "operator", "mode", "receivedAt" FROM "InboundPart"
     WHERE "groupKey" = ? AND "messageId" IS NULL ORDER BY "partNumber", "receivedAt"`,
    [groupKey],
  );
  return parseRows(rows, PART_ROW).map((part) => ({ ...part, mode: parseOneOf(part.mode, inboundModes, "mode") }));
}

/** Joins the parts present (lowest part number first, one copy of each) into one message. */
async function assemble(tx: SqlExecutor, parts: PartRow[], complete: boolean, receivedAt: Date): Promise<StoredInboundMessage | null> {
  const byNumber = new Map<number, PartRow>();
  for (const part of parts) if (!byNumber.has(part.partNumber)) byNumber.set(part.partNumber, part);
  const ordered = [...byNumber.values()].sort((a, b) => a.partNumber - b.partNumber);
  const first = ordered[0];
  const encoding = encodingOfDataCoding(first.dataCoding);
  const message: StoredInboundMessage = {
    id: timeOrderedUuid(),
    accountId: await accountForDestination(tx, first.to, first.operator),
    from: first.from,
    to: first.to,
    body: decodeUserData(encoding, Buffer.concat(ordered.map((part) => Buffer.from(part.payload, "hex")))),
    operator: first.operator,
    encoding,
    segments: ordered.length,
    complete,
    receivedAt,
    mode: first.mode,
  };
  if (!(await insertMessage(tx, message, `parts:${[...parts.map((part) => part.pduKey)].sort()[0]}`))) return null;
  const ids = parts.map((part) => part.id);
  await tx.run(`UPDATE "InboundPart" SET "messageId" = ? WHERE "id" IN (${ids.map(() => "?").join(", ")})`, [message.id, ...ids]);
  return message;
}

async function lockGroup(tx: SqlExecutor, groupKey: string): Promise<void> {
  // PostgreSQL: two parts of one message committing at once would each miss the other; SQLite
  // transactions already take turns.
  if (tx.dialect === "postgres") await tx.run(`SELECT pg_advisory_xact_lock(hashtext(?))`, [groupKey]);
}

export async function storeMobileOriginated(input: {
  operator: string;
  mo: MobileOriginated;
  receivedAt?: Date;
  /** test when the PDU came over a bind of test traffic only (see StoredInboundMessage.mode); live by default. */
  mode?: InboundMode;
}): Promise<StoreOutcome> {
  const { operator, mo } = input;
  const mode = input.mode ?? "live";
  const receivedAt = input.receivedAt ?? new Date();
  // A test bind's PDUs are deduplicated and reassembled apart from a live bind's.
  const scope = mode === "test" ? `${operator}:test` : operator;
  const [pduKey, previousKey] = pduKeys(scope, mo.identity, receivedAt);
  const from = inboundAddress(mo.source);
  const to = inboundAddress(mo.destination);

  const outcome = await sql().transaction(async (tx): Promise<StoreOutcome> => {
    if (!mo.part) {
      const seen = await tx.get(`SELECT 1 AS "seen" FROM "InboundMessage" WHERE "pduKey" IN (?, ?)`, [pduKey, previousKey]);
      if (seen) return { kind: "duplicate" };
      const encoding = encodingOfDataCoding(mo.dataCoding);
      const message: StoredInboundMessage = {
        id: timeOrderedUuid(),
        accountId: await accountForDestination(tx, to, operator),
        from,
        to,
        body: decodeUserData(encoding, mo.payload),
        operator,
        encoding,
        segments: 1,
        complete: true,
        receivedAt,
        mode,
      };
      return (await insertMessage(tx, message, pduKey)) ? { kind: "stored", message } : { kind: "duplicate" };
    }

    const groupKey = [scope, from, to, mo.part.reference, mo.part.total].join("|");
    await lockGroup(tx, groupKey);
    const seen = await tx.get(`SELECT 1 AS "seen" FROM "InboundPart" WHERE "pduKey" IN (?, ?)`, [pduKey, previousKey]);
    if (seen) return { kind: "duplicate" };
    const inserted = await tx.run(
      `INSERT INTO "InboundPart" ("id", "pduKey", "groupKey", "operator", "from", "to", "partNumber", "total", "dataCoding", "payload", "mode", "receivedAt")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("pduKey") DO NOTHING`,
      [
        timeOrderedUuid(),
        pduKey,
        groupKey,
        operator,
        from,
        to,
        mo.part.number,
        mo.part.total,
        mo.dataCoding,
        mo.payload.toString("hex"),
        mode,
        toDbTime(receivedAt),
      ],
    );
    if (inserted === 0) return { kind: "duplicate" };
    const parts = await readWaitingParts(tx, groupKey);
    if (new Set(parts.map((part) => part.partNumber)).size < mo.part.total) return { kind: "held" };
    const message = await assemble(tx, parts, true, receivedAt);
    return message ? { kind: "stored", message } : { kind: "duplicate" };
  });
  if (outcome.kind === "stored") await onInboundStored(outcome.message);
  return outcome;
}

/**
 * Stores, marked incomplete, every message whose first part came more than timeoutMs ago and whose
 * other parts have not all come; forgets reassembled parts once their dedupe window has passed.
 */
export async function storeOverdueParts(timeoutMs: number, now = new Date()): Promise<StoredInboundMessage[]> {
  const database = sql();
  const groups = parseRows(
    await database.all(`SELECT "groupKey" FROM "InboundPart" WHERE "messageId" IS NULL GROUP BY "groupKey" HAVING MIN("receivedAt") < ?`, [
      toDbTime(new Date(now.getTime() - timeoutMs)),
    ]),
    { groupKey: "text" },
  );
  const stored: StoredInboundMessage[] = [];
  for (const { groupKey } of groups) {
    const message = await database.transaction(async (tx) => {
      await lockGroup(tx, groupKey);
      const parts = await readWaitingParts(tx, groupKey);
      if (parts.length === 0) return null;
      const latest = new Date(Math.max(...parts.map((part) => part.receivedAt.getTime())));
      return assemble(tx, parts, false, latest);
    });
    if (message) {
      stored.push(message);
      await onInboundStored(message);
    }
  }
  await database.run(`DELETE FROM "InboundPart" WHERE "messageId" IS NOT NULL AND "receivedAt" < ?`, [
    toDbTime(new Date(now.getTime() - 2 * DEDUPE_WINDOW_MS)),
  ]);
  return stored;
}
