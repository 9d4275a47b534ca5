// The error text next-auth hands the sign-in form when a sign-in is throttled (no server imports:
// the form reads it in the browser).
const TOO_MANY_ATTEMPTS = "TooManyAttempts";

export function tooManyAttemptsError(retryAfterSeconds: number): string {
  return `${TOO_MANY_ATTEMPTS}:${retryAfterSeconds}`;
}

/** Seconds to wait when the error is a throttle refusal, else null. */
export function retryAfterFromSignInError(error: string): number | null {
  const [kind, seconds] = error.split(":");
  return kind === TOO_MANY_ATTEMPTS ? Number(seconds) || 60 : null;
}
