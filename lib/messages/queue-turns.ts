// Each message's turn in its carrier's queue (Message.turnAt; the claim serves turns in order).
// Fairness between accounts: an account's messages to a carrier take turns one carrier slot apart
// from the later of now and the account's last turn there, so an account with a backlog has turns
// far ahead while another account's new message gets one near now and goes out next: the
// accounts alternate while both have work (start-time fair queuing). High priority: the same
// turns, HIGH_LEAD earlier, so they go before any normal message. A scheduled send takes its turns
// from its send_at and leaves the account's turns alone.
// The accounts' last turns are this process's memory: after a restart an account starts at now.
import type { Operator } from "@/lib/carriers/operators";
import type { Priority } from "@/lib/model/sends";

/** One carrier slot: the carriers' default cap of 100 messages per second. */
export const TURN_SLOT_MS = 10;
/** High priority turns come this far before normal ones: further than any backlog reaches. */
export const HIGH_LEAD_MS = 10 * 365 * 24 * 3600 * 1000;
/** Accounts remembered before those whose turns have passed are forgotten. */
const MAX_REMEMBERED = 10_000;

const lastTurns = new Map<string, number>();

/**
 * The first of `count` consecutive turns (TURN_SLOT_MS apart) of an account's messages to one
 * carrier, taken now; the caller adds the slot per message.
 */
export function takeTurns(
  accountId: string,
  operator: Operator,
  test: boolean,
  count: number,
  options: { now: number; priority: Priority; sendAt: Date | null },
): number {
  const lead = options.priority === "high" ? HIGH_LEAD_MS : 0;
  if (options.sendAt) return options.sendAt.getTime() - lead;
  const key = `${accountId}\u0000${operator}\u0000${test ? 1 : 0}`;
  const start = Math.max(options.now, lastTurns.get(key) ?? 0);
  if (lastTurns.size >= MAX_REMEMBERED) forgetPassed(options.now);
  lastTurns.set(key, start + count * TURN_SLOT_MS);
  return start - lead;
}

function forgetPassed(now: number): void {
  for (const [key, turn] of lastTurns) if (turn <= now) lastTurns.delete(key);
}
