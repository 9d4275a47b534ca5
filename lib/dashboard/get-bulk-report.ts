// One bulk send's report: its messages counted per state and carrier, the states reached over
// time, what was held and refunded, failures grouped by reason, and every recipient's outcome as
// CSV. Counts are aggregated in the database; only the timeline reads each message's times, a chunk
// at a time. Account users see their own account's bulk sends (another's reads as not found);
// support and admins see any, without the body.
import { CANCELLABLE_MESSAGES } from "@/lib/messages/cancel-messages";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { csvLine, csvNumber } from "@/lib/csv";
import { formatAmount } from "@/lib/money";
import { carrierName, explainCarrierCode, messageStatusLabel } from "@/lib/messages/vocabulary";
import type { MessageScope } from "./get-message-detail";

/** The states a report counts, in the order a message reaches them. */
export const REPORT_STATES = ["scheduled", "queued", "sending", "sent", "delivered", "failed"] as const;
export type ReportState = (typeof REPORT_STATES)[number];

export type StateCounts = Record<ReportState, number>;

export type TimelineBucket = { at: string; sent: number; delivered: number; failed: number };

export type FailureReason = { code: string; words: string | null; count: number };

export type BulkReport = {
  id: string;
  accountId: string;
  senderId: string;
  /** Null for platform staff, who do not read bodies. */
  body: string | null;
  total: number;
  test: boolean;
  currency: string;
  createdAt: Date;
  /** The send_at its messages were scheduled for; null when sent at once. */
  sendAt: Date | null;
  counts: StateCounts;
  /** Scheduled or queued messages no carrier has nor may have: what a bulk cancel would stop. */
  cancellable: number;
  carriers: Array<{ operator: string; name: string; counts: StateCounts; total: number }>;
  /** "minute" or "hour": the bucket the timeline counts by, chosen from the send's span. */
  timelineUnit: "minute" | "hour";
  timeline: TimelineBucket[];
  /** Ten-thousandths, positive. */
  held: bigint;
  refunded: bigint;
  refundCount: number;
  net: bigint;
  failures: FailureReason[];
};

const emptyCounts = (): StateCounts => ({ scheduled: 0, queued: 0, sending: 0, sent: 0, delivered: 0, failed: 0 });

function stateOf(status: string, delivered: boolean): ReportState {
  if (status === "failed") return "failed";
  if (status === "success") return delivered ? "delivered" : "sent";
  if (status === "processing") return "sending";
  if (status === "created") return "scheduled";
  return "queued";
}

/** The code a failure is grouped by: the carrier code in its text, else the text itself. */
function failureCode(text: string): string {
  const codes = text.match(/ESME_[A-Z_]+|\b[A-Z]{7}\b/g) ?? [];
  return codes.find((code) => explainCarrierCode(code)) ?? (text || "Unknown");
}

async function findBulk(id: string, scope: MessageScope) {
  const bulk = await db().bulkSend.findFirst({
    where: { id, ...("accountId" in scope ? { accountId: scope.accountId, test: scope.test } : {}) },
    include: { account: { select: { currency: true } } },
  });
  if (!bulk) throw AppError.notFound("Bulk send");
  return bulk;
}

const TIMELINE_CHUNK = 5000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Longer than this and the timeline counts per hour. */
const MINUTE_SPAN_LIMIT = 3 * HOUR;

async function timelineOf(bulkSendId: string): Promise<{ unit: "minute" | "hour"; buckets: TimelineBucket[] }> {
  const events: Array<[number, "sent" | "delivered" | "failed"]> = [];
  let after: string | undefined;
  for (;;) {
    const rows = await db().message.findMany({
      where: { bulkSendId, ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: "asc" },
      take: TIMELINE_CHUNK,
      select: { id: true, status: true, dispatchedAt: true, deliveredAt: true, finishedAt: true },
    });
    for (const row of rows) {
      if (row.dispatchedAt && row.status !== "failed") events.push([row.dispatchedAt.getTime(), "sent"]);
      if (row.deliveredAt) events.push([row.deliveredAt.getTime(), "delivered"]);
      if (row.status === "failed" && row.finishedAt) events.push([row.finishedAt.getTime(), "failed"]);
    }
    if (rows.length < TIMELINE_CHUNK) break;
    after = rows[rows.length - 1].id;
  }
  if (events.length === 0) return { unit: "minute", buckets: [] };
  let first = Infinity;
  let last = -Infinity;
  for (const [at] of events) {
    first = Math.min(first, at);
    last = Math.max(last, at);
  }
  const size = last - first > MINUTE_SPAN_LIMIT ? HOUR : MINUTE;
  const start = Math.floor(first / size) * size;
  const buckets = Array.from({ length: Math.floor((last - start) / size) + 1 }, (_, index) => ({
    at: new Date(start + index * size).toISOString(),
    sent: 0,
    delivered: 0,
    failed: 0,
  }));
  for (const [at, state] of events) buckets[Math.floor((at - start) / size)][state] += 1;
  return { unit: size === HOUR ? "hour" : "minute", buckets };
}

export async function getBulkReport(id: string, scope: MessageScope): Promise<BulkReport> {
  const bulk = await findBulk(id, scope);
  const [byStatus, deliveredByCarrier, failures, holds, releases, timeline, schedule, cancellable] = await Promise.all([
    db().message.groupBy({ by: ["status", "operator"], where: { bulkSendId: id }, _count: { _all: true } }),
    db().message.groupBy({
      by: ["operator"],
      where: { bulkSendId: id, status: "success", deliveredAt: { not: null } },
      _count: { _all: true },
    }),
    db().message.groupBy({
      by: ["operatorResponse", "lastError"],
      where: { bulkSendId: id, status: "failed" },
      _count: { _all: true },
    }),
    db().ledgerEntry.aggregate({ where: { kind: "hold", message: { is: { bulkSendId: id } } }, _sum: { amount: true } }),
    db().ledgerEntry.aggregate({
      where: { kind: "release", message: { is: { bulkSendId: id } } },
      _sum: { amount: true },
      _count: { _all: true },
    }),
    timelineOf(id),
    // A bulk send's messages share their send_at.
    db().message.findFirst({ where: { bulkSendId: id }, select: { sendAt: true } }),
    db().message.count({ where: { bulkSendId: id, ...CANCELLABLE_MESSAGES } }),
  ]);
  const counts = emptyCounts();
  const perCarrier = new Map<string, StateCounts>();
  const delivered = new Map(deliveredByCarrier.map((row) => [row.operator, row._count._all]));
  for (const row of byStatus) {
    const carrier = perCarrier.get(row.operator) ?? emptyCounts();
    perCarrier.set(row.operator, carrier);
    const count = row._count._all;
    if (row.status === "success") {
      const receipted = delivered.get(row.operator) ?? 0;
      carrier.delivered += receipted;
      carrier.sent += count - receipted;
      counts.delivered += receipted;
      counts.sent += count - receipted;
    } else {
      const state = stateOf(row.status, false);
      carrier[state] += count;
      counts[state] += count;
    }
  }
  const reasons = new Map<string, number>();
  for (const row of failures) {
    const code = failureCode(row.operatorResponse || row.lastError || "");
    reasons.set(code, (reasons.get(code) ?? 0) + row._count._all);
  }
  const held = -(holds._sum.amount ?? 0n);
  const refunded = releases._sum.amount ?? 0n;
  const staff = !("accountId" in scope);
  return {
    id: bulk.id,
    accountId: bulk.accountId,
    senderId: bulk.senderId,
    body: staff ? null : bulk.body,
    total: bulk.total,
    test: bulk.test,
    currency: bulk.currency || bulk.account.currency,
    createdAt: bulk.createdAt,
    sendAt: schedule?.sendAt ?? null,
    counts,
    cancellable,
    carriers: [...perCarrier.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([operator, carrierCounts]) => ({
        operator,
        name: carrierName(operator),
        counts: carrierCounts,
        total: Object.values(carrierCounts).reduce((sum, count) => sum + count, 0),
      })),
    timelineUnit: timeline.unit,
    timeline: timeline.buckets,
    held,
    refunded,
    refundCount: releases._count._all,
    net: held - refunded,
    failures: [...reasons.entries()]
      .map(([code, count]) => ({ code, words: explainCarrierCode(code), count }))
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
  };
}

export const RECIPIENT_CSV_COLUMNS = [
  "message_id",
  "to",
  "carrier",
  "outcome",
  "reason",
  "code",
  "charge",
  "refunded",
  "currency",
  "created_at",
  "delivered_at",
] as const;

/** Every recipient of the bulk send with its message's outcome, a chunk of lines per read. */
export async function* bulkRecipientsCsv(id: string, scope: MessageScope): AsyncGenerator<string> {
  await findBulk(id, scope);
  yield `${RECIPIENT_CSV_COLUMNS.join(",")}\r\n`;
  let after: string | undefined;
  for (;;) {
    const rows = await db().message.findMany({
      where: { bulkSendId: id, ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: "asc" },
      take: TIMELINE_CHUNK,
      select: {
        id: true,
        to: true,
        operator: true,
        status: true,
        operatorResponse: true,
        lastError: true,
        charge: true,
        currency: true,
        createdAt: true,
        deliveredAt: true,
        ledger: { where: { kind: "release" }, select: { amount: true } },
      },
    });
    yield rows
      .map((row) => {
        const failed = row.status === "failed";
        const code = failed ? failureCode(row.operatorResponse || row.lastError || "") : "";
        const refunded = row.ledger.reduce((sum, entry) => sum + entry.amount, 0n);
        const values = [
          row.id,
          row.to,
          carrierName(row.operator),
          messageStatusLabel(row.status, row.deliveredAt).label,
          failed ? (explainCarrierCode(code) ?? "") : "",
          code,
          csvNumber(formatAmount(row.charge)),
          csvNumber(formatAmount(refunded)),
          row.currency,
          row.createdAt.toISOString(),
          row.deliveredAt?.toISOString() ?? "",
        ];
        return csvLine(values);
      })
      .join("");
    if (rows.length < TIMELINE_CHUNK) return;
    after = rows[rows.length - 1].id;
  }
}
