// When an API key authenticates, as a rule on its stored state.
import { AppError } from "@/lib/errors";

export function isKeyExpired(expiresAt: number | null, now: number): boolean {
  return expiresAt !== null && expiresAt <= now;
}

/** A key authenticates while it is active and, once rolled, until its expiry. */
export function isApiKeyUsable(state: { active: boolean; expiresAt: Date | null }, now: number): boolean {
  return state.active && !isKeyExpired(state.expiresAt?.getTime() ?? null, now);
}

/** The refusal of a key that is unknown, revoked or expired, wherever it is found out. */
export function unknownApiKeyError(): AppError {
  return new AppError("UNAUTHORIZED", "Unauthorized", { description: "The API key is unknown or revoked" });
}
