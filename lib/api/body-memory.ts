// The memory that request bodies being read may hold together in this process (HTTP_BODY_MEMORY_MB).
// Each endpoint bounds one body (64 KiB, 8 MiB for bulk sends); this bounds them all at once, so many
// slow uploads cannot exhaust the process. A body's declared length is reserved on its head, before
// any of it is read, and a body without one (chunked) is counted as it arrives. What cannot be held
// is answered 503 with Retry-After (see runApiRequest). A reservation ends when its request has been
// answered by its handler, or has failed.
import { getEnv } from "@/lib/env";

const MIB = 1024 * 1024;

let inUse = 0;

/** The bytes a body may hold: its declared length at first, more as a body without one arrives. */
export type BodyMemory = {
  /** Counts `bytes` more received of this body; false (nothing counted) when the budget cannot hold them. */
  take: (bytes: number) => boolean;
  /** Gives back everything this body held (once; later calls do nothing). */
  release: () => void;
};

function budget(): number {
  return getEnv().HTTP_BODY_MEMORY_MB * MIB;
}

/** Reserves `declared` bytes for a body about to be read; null when the budget cannot hold them now. */
export function reserveBodyMemory(declared: number): BodyMemory | null {
  if (inUse + declared > budget()) return null;
  inUse += declared;
  let reserved = declared;
  let received = 0;
  let released = false;
  return {
    take: (bytes) => {
      if (released) return false;
      const beyond = received + bytes - reserved;
      if (beyond > 0) {
        if (inUse + beyond > budget()) return false;
        inUse += beyond;
        reserved += beyond;
      }
      received += bytes;
      return true;
    },
    release: () => {
      if (released) return;
      released = true;
      inUse -= reserved;
    },
  };
}
