// A carrier's throughput limit "over any second": the (n+1)th send waits until a full window has
// passed since the send n places before it. Exact for every sliding window, unlike a token bucket,
// whose burst can put up to twice the rate into one second. Used by the client (waits) and by the
// SMSC simulator (refuses with ESME_RTHROTTLED).
// The client also spreads its sends over the window (`slices`): at most a slice's share of the
// limit in any slice of the window. Without it a backlog goes out as a burst at the start of each
// window and then waits out the rest, and a message queued behind the burst waits for that pause.
import { setTimeout as sleep } from "node:timers/promises";

export class ThroughputLimiter {
  /**
   * Times of the last sends, as a ring of `kept` slots once full; slot `next` holds the oldest. It
   * grows with the sends, so an uncapped limit (tps=1000000) costs what is sent, not `kept` slots.
   * It keeps as many as the highest limit set so far, so a limit lowered and raised again still
   * counts the sends made before.
   */
  private sentAt: number[] = [];
  private kept = 0;
  private next = 0;
  private pausedUntil = 0;
  private queue: Promise<void> = Promise.resolve();
  private perWindow = 0;
  /** At most `perSlice` sends in any `sliceMs`. */
  private perSlice = 0;
  private readonly sliceMs: number;

  constructor(
    perWindow: number,
    private readonly windowMs = 1000,
    private readonly slices = 1,
  ) {
    this.sliceMs = windowMs / slices;
    this.setLimit(perWindow);
  }

  /** Sends allowed in any window. */
  get limit(): number {
    return this.perWindow;
  }

  /** A new limit, counted over the sends already made: a lower one holds the next sends back at once. */
  setLimit(perWindow: number): void {
    if (perWindow > this.kept) {
      this.sentAt = [...this.sentAt.slice(this.next), ...this.sentAt.slice(0, this.next)];
      this.next = 0;
      this.kept = perWindow;
    }
    this.perWindow = perWindow;
    this.perSlice = Math.min(perWindow, Math.max(1, Math.ceil(perWindow / this.slices)));
  }

  /** Milliseconds until the next send is allowed (0: now). */
  waitMs(now = performance.now()): number {
    const oldest = this.sentBefore(this.perWindow);
    const sliceOldest = this.sentBefore(this.perSlice);
    return Math.max(0, oldest + this.windowMs - now, sliceOldest + this.sliceMs - now, this.pausedUntil - now);
  }

  /** The time of the send `places` before the next one (minus infinity when there was none). */
  private sentBefore(places: number): number {
    const count = this.sentAt.length;
    if (count < places) return Number.NEGATIVE_INFINITY;
    if (count < this.kept) return this.sentAt[count - places];
    return this.sentAt[(this.next - places + this.kept) % this.kept];
  }

  /** Takes a send slot now if the window allows it (the simulator's check). */
  tryTake(now = performance.now()): boolean {
    if (this.waitMs(now) > 0) return false;
    this.record(now);
    return true;
  }

  /** Resolves when a send is allowed, in call order (the client's pacing). */
  take(): Promise<void> {
    const turn = this.queue.then(async () => {
      for (let wait = this.waitMs(); wait > 0; wait = this.waitMs()) await sleep(Math.ceil(wait));
      this.record(performance.now());
    });
    this.queue = turn;
    return turn;
  }

  /** Holds every send back for a while (the carrier said it is throttling). */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, performance.now() + ms);
  }

  private record(now: number): void {
    if (this.sentAt.length < this.kept) {
      this.sentAt.push(now);
      return;
    }
    this.sentAt[this.next] = now;
    this.next = (this.next + 1) % this.kept;
  }
}
