// A time a client gives (a filter, a cursor) may be any year; both engines store, and the database
// client converts, only some.

/** The instants both engines store and the database client converts: the years 0001 to 9999, UTC. */
const EARLIEST_STORABLE_MS = Date.parse("0001-01-01T00:00:00.000Z");
const LATEST_STORABLE_MS = Date.parse("9999-12-31T23:59:59.999Z");

/** Whether the time can be stored or compared with stored times (a client's filter or cursor may be any year). */
export function isStorableTime(date: Date): boolean {
  const ms = date.getTime();
  return ms >= EARLIEST_STORABLE_MS && ms <= LATEST_STORABLE_MS;
}
