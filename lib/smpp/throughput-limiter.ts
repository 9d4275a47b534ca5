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
   * Times of the last `perWindow` sends, as a ring once full; slot `next` holds the oldest. It grows
   * with the sends, so an uncapped limit (tps=1000000) costs what is sent, not `perWindow` slots.
   */
  private readonly sentAt: number[] = [];
  private next = 0;
  private pausedUntil = 0;
  private queue: Promise<void> = Promise.resolve();

  /** At most `perSlice` sends in any `sliceMs`. */
  private readonly perSlice: number;
  private readonly sliceMs: number;

  constructor(
    readonly perWindow: number,
    private readonly windowMs = 1000,
    slices = 1,
  ) {
    this.perSlice = Math.min(perWindow, Math.max(1, Math.ceil(perWindow / slices)));
    this.sliceMs = windowMs / slices;
  }

  /** Milliseconds until the next send is allowed (0: now). */
  waitMs(now = performance.now()): number {
    const oldest = this.sentAt.length < this.perWindow ? Number.NEGATIVE_INFINITY : this.sentAt[this.next];
    const sliceOldest = this.sentBefore(this.perSlice);
    return Math.max(0, oldest + this.windowMs - now, sliceOldest + this.sliceMs - now, this.pausedUntil - now);
  }

  /** The time of the send `places` before the next one (minus infinity when there was none). */
  private sentBefore(places: number): number {
    const count = this.sentAt.length;
    if (count < places) return Number.NEGATIVE_INFINITY;
    if (count < this.perWindow) return this.sentAt[count - places];
    return this.sentAt[(this.next - places + this.perWindow) % this.perWindow];
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
    if (this.sentAt.length < this.perWindow) {
      this.sentAt.push(now);
      return;
    }
    this.sentAt[this.next] = now;
    this.next = (this.next + 1) % this.perWindow;
  }
}
