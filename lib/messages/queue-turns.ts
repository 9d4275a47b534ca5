// Each message's turn in its carrier's queue (Message.turn; the claim serves turns in order).
// Fairness between accounts: an account's messages to a carrier take turns one carrier slot apart
// from the later of the account's last turn there and the queue's virtual time (the turn its
// dispatchers serve now, or now when they are ahead of the clock or idle), so an account with a
// backlog has turns far ahead while another account's new message gets one at the head and goes
// out next: the accounts alternate while both have work (start-time fair queuing). The virtual
// time is read from the queue, not taken from the clock, because a carrier that answers slower
// than its cap falls behind the clock, and a newcomer's turn at "now" would wait for that lag.
// High priority: the same turns, HIGH_LEAD earlier, so they go before any normal message. A
// scheduled send takes its turns from its send_at and leaves the account's turns alone.
// The accounts' last turns are this process's memory: after a restart an account starts at the head.
import type { Operator } from "@/lib/carriers/operators";
import { getStores } from "@/lib/db/stores";
import type { Priority } from "@/lib/model/sends";

/** One carrier slot: the carriers' default cap of 100 messages per second. */
export const TURN_SLOT_MS = 10;
/** High priority turns come this far before normal ones: further than any backlog reaches. */
export const HIGH_LEAD_MS = 10 * 365 * 24 * 3600 * 1000;
/** Turns before this are high priority ones: a normal turn is never that far back. */
export function highTurnsBefore(now: number): number {
  return now - HIGH_LEAD_MS / 2;
}

/** Accounts remembered before those whose turns have passed are forgotten. */
const MAX_REMEMBERED = 10_000;
/** How old the queue's virtual time may be before it is read again (in the background). */
const SERVING_REFRESH_MS = 1000;

const lastTurns = new Map<string, number>();
type ServingTurn = { turn: number | null; readAt: number; reading: boolean };
const servingTurns = new Map<string, ServingTurn>();

/**
 * The first of `count` consecutive turns (TURN_SLOT_MS apart) of an account's messages to one
 * carrier, taken now; the caller adds the slot per message.
 */
export function takeTurns(
  accountId: string,
  operator: Operator,
  test: boolean,
  count: number,
  options: { now: number; priority: Priority; sendAt: Date | null; serving: number | null },
): number {
  const lead = options.priority === "high" ? HIGH_LEAD_MS : 0;
  if (options.sendAt) return options.sendAt.getTime() - lead;
  const key = `${accountId}\u0000${operator}\u0000${test ? 1 : 0}`;
  const virtualTime = Math.min(options.now, options.serving ?? options.now);
  const start = Math.max(virtualTime, lastTurns.get(key) ?? 0);
  if (lastTurns.size >= MAX_REMEMBERED) forgetPassed(options.now);
  lastTurns.set(key, start + count * TURN_SLOT_MS);
  return start - lead;
}

function forgetPassed(now: number): void {
  for (const [key, turn] of lastTurns) if (turn <= now) lastTurns.delete(key);
}

/**
 * The normal turn the carrier's dispatchers are serving, as last read (null: the queue is idle, or
 * not read yet). Read again in the background when older than SERVING_REFRESH_MS, so a send never
 * waits for it; a turn a second old only puts a newcomer slightly before the head. It never moves
 * back while the queue has work: a retried message claimed with its old turn, or a moment between
 * two claims with nothing in service, leaves it where it was.
 */
export function servingTurn(operator: Operator, test: boolean, now: number): number | null {
  const key = `${operator}\u0000${test ? 1 : 0}`;
  let entry = servingTurns.get(key);
  if (!entry) servingTurns.set(key, (entry = { turn: null, readAt: Number.NEGATIVE_INFINITY, reading: false }));
  if (!entry.reading && now - entry.readAt >= SERVING_REFRESH_MS) {
    const reading = entry;
    reading.reading = true;
    getStores()
      .delivery.readQueueState({ operator, test, normalTurnsAfter: highTurnsBefore(now) })
      .then(({ servingTurn, queued }) => {
        const previous = queued ? reading.turn : null;
        reading.turn = servingTurn === null ? previous : Math.max(servingTurn, previous ?? servingTurn);
        reading.readAt = now;
      })
      // A failed read keeps the last turn: the send's own statements meet the same database and report it.
      .catch(() => undefined)
      .finally(() => (reading.reading = false));
  }
  return entry.turn;
}
