// The cursors of lists that page newest first by a time and an id (messages, inbound messages):
// opaque to clients (base64url of "<ISO time>|<uuid>") and checked when they come back, since a
// client can send anything in their place.
import { isStorableTime } from "./storable-time";

export type PageCursor = { at: Date; id: string };

export function encodePageCursor({ at, id }: PageCursor): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString("base64url");
}

/** The cursor a page link carries, or null when it is not one encodePageCursor made. */
export function decodePageCursor(text: string): PageCursor | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return null;
  const [time, id, extra] = Buffer.from(text, "base64url").toString("utf8").split("|");
  if (extra !== undefined || !id || !/^[0-9a-f-]{36}$/.test(id)) return null;
  const at = new Date(time);
  if (Number.isNaN(at.getTime()) || !isStorableTime(at) || at.toISOString() !== time) return null;
  return { at, id };
}
