// A carrier bind's last hour in one-minute buckets: messages the carrier accepted, refusals,
// throttled answers, DELIVRD receipts, receipts of any kind by the minute of the message's
// acceptance by the carrier, and histograms of the time from acceptance (the API's) to the
// carrier's answer and to the receipt. Fixed buckets, so the buckets of several workers add up and
// percentiles come from the sum; the receipts awaited are the acceptances of the hour less the
// receipts of those acceptances, whichever worker sent a message and whichever got its receipt.

/** Upper bounds of the latency buckets, in ms; a last bucket takes everything above. */
export const LATENCY_BOUNDS_MS = [100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 300_000, 900_000, 3_600_000];

export type MinuteStats = {
  /** Minutes since the epoch. */
  minute: number;
  /** Messages the carrier accepted whose submit began in this minute (their dispatchedAt). */
  sent: number;
  errors: number;
  throttled: number;
  /** Counts per latency bucket (LATENCY_BOUNDS_MS, then the overflow): acceptance to the carrier's answer. */
  latency: number[];
  delivered: number;
  /** The same buckets: acceptance to the DELIVRD receipt. */
  receiptLatency: number[];
  /** Receipts (DELIVRD or a failure) of messages the carrier accepted in this minute, whenever they came. */
  receipted: number;
};

const MINUTES_KEPT = 60;

const MINUTE_BUCKETS = 60;

/** Events over the last minute, in one-second buckets. */
export class MinuteCounter {
  private readonly buckets = new Array<number>(MINUTE_BUCKETS).fill(0);
  private second = Math.floor(Date.now() / 1000);

  add(now = Date.now()): void {
    this.advance(now);
    this.buckets[this.second % MINUTE_BUCKETS]++;
  }

  total(now = Date.now()): number {
    this.advance(now);
    return this.buckets.reduce((sum, count) => sum + count, 0);
  }

  private advance(now: number): void {
    const second = Math.floor(now / 1000);
    for (let passed = this.second + 1; passed <= second && passed <= this.second + MINUTE_BUCKETS; passed++)
      this.buckets[passed % MINUTE_BUCKETS] = 0;
    this.second = Math.max(this.second, second);
  }
}

function emptyMinute(minute: number): MinuteStats {
  const buckets = () => new Array<number>(LATENCY_BOUNDS_MS.length + 1).fill(0);
  return { minute, sent: 0, errors: 0, throttled: 0, latency: buckets(), delivered: 0, receiptLatency: buckets(), receipted: 0 };
}

function bucketOf(ms: number): number {
  const bucket = LATENCY_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return bucket === -1 ? LATENCY_BOUNDS_MS.length : bucket;
}

export class HourStats {
  private readonly byMinute = new Map<number, MinuteStats>();

  private current(now: number): MinuteStats {
    return this.at(Math.floor(now / 60_000));
  }

  private at(minute: number): MinuteStats {
    let stats = this.byMinute.get(minute);
    if (!stats) {
      this.byMinute.set(minute, (stats = emptyMinute(minute)));
      for (const kept of this.byMinute.keys()) if (kept <= minute - MINUTES_KEPT) this.byMinute.delete(kept);
    }
    return stats;
  }

  /**
   * A message the carrier accepted, acceptanceMs after the API accepted it (null when unknown),
   * counted in the minute its submit began (`startedAt`, the message's dispatchedAt).
   */
  sent(acceptanceMs: number | null, startedAt = Date.now()): void {
    const stats = this.current(startedAt);
    stats.sent++;
    if (acceptanceMs !== null) stats.latency[bucketOf(acceptanceMs)]++;
  }

  /** A message whose every part got its DELIVRD receipt, acceptanceMs after the API accepted it. */
  delivered(acceptanceMs: number | null, now = Date.now()): void {
    const stats = this.current(now);
    stats.delivered++;
    if (acceptanceMs !== null) stats.receiptLatency[bucketOf(acceptanceMs)]++;
  }

  /**
   * The receipt that ended a message (DELIVRD on every part, or a failure), counted in the minute
   * the carrier's acceptance of it began (its dispatchedAt); nothing once that minute is out of the hour.
   */
  receipted(dispatchedAt: number, now = Date.now()): void {
    const minute = Math.floor(dispatchedAt / 60_000);
    if (minute <= Math.floor(now / 60_000) - MINUTES_KEPT) return;
    this.at(minute).receipted++;
  }

  refused(now = Date.now()): void {
    this.current(now).errors++;
  }

  throttled(count: number, now = Date.now()): void {
    if (count > 0) this.current(now).throttled += count;
  }

  /** The minutes of the last hour that saw anything, oldest first. */
  minutes(now = Date.now()): MinuteStats[] {
    const from = Math.floor(now / 60_000) - MINUTES_KEPT + 1;
    return [...this.byMinute.values()].filter((stats) => stats.minute >= from).sort((a, b) => a.minute - b.minute);
  }
}

/** Several workers' minutes added up per minute, oldest first. */
export function mergeMinutes(lists: MinuteStats[][]): MinuteStats[] {
  const merged = new Map<number, MinuteStats>();
  for (const stats of lists.flat()) {
    const into = merged.get(stats.minute) ?? emptyMinute(stats.minute);
    into.sent += stats.sent;
    into.errors += stats.errors;
    into.throttled += stats.throttled;
    stats.latency.forEach((count, index) => (into.latency[index] += count));
    into.delivered += stats.delivered;
    stats.receiptLatency.forEach((count, index) => (into.receiptLatency[index] += count));
    into.receipted += stats.receipted;
    merged.set(stats.minute, into);
  }
  return [...merged.values()].sort((a, b) => a.minute - b.minute);
}

/**
 * Messages the carrier accepted over the minutes whose receipt has not come: the acceptances less
 * the receipts of those acceptances (never below 0, as when a receipt comes to a worker for a
 * message whose sender has restarted and no longer reports it).
 */
export function receiptsAwaited(minutes: MinuteStats[]): number {
  const sent = minutes.reduce((total, stats) => total + stats.sent, 0);
  const receipted = minutes.reduce((total, stats) => total + (stats.receipted ?? 0), 0);
  return Math.max(0, sent - receipted);
}

/**
 * The latency at quantile q (0-1) over the minutes, as the upper bound of the bucket it falls in
 * (null with no samples; Infinity in the overflow bucket).
 */
export function latencyQuantileMs(minutes: MinuteStats[], q: number, of: "latency" | "receiptLatency" = "latency"): number | null {
  const counts = new Array<number>(LATENCY_BOUNDS_MS.length + 1).fill(0);
  for (const stats of minutes) stats[of]?.forEach((count, index) => (counts[index] += count));
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  let seen = 0;
  for (let index = 0; index < counts.length; index++) {
    seen += counts[index];
    if (seen >= q * total) return index < LATENCY_BOUNDS_MS.length ? LATENCY_BOUNDS_MS[index] : Infinity;
  }
  return Infinity;
}

/** The API's acceptance time of a message, read from its UUIDv7 id; null for an id of another kind. */
export function acceptedAtOfId(id: string): number | null {
  if (id.length !== 36 || id[14] !== "7") return null;
  const ms = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * Receipts of live messages recorded by one delivery services instance, per carrier: its receipt
 * handler records them, its dispatcher reports them with one of the carrier's binds. Both start
 * and end together, so a dispatcher reports the receipts of its own lifetime only.
 */
export class ReceiptHours {
  private readonly byOperator = new Map<string, HourStats>();

  of(operator: string): HourStats {
    let hour = this.byOperator.get(operator);
    if (!hour) this.byOperator.set(operator, (hour = new HourStats()));
    return hour;
  }
}
