// Server actions refused before Next runs them. Next aborts a cross-site action, one over its body
// limit and one whose body it cannot decode by throwing, which answers 500; these answer the client's
// mistake as a 4xx naming it. Next's own checks stay in place behind this one.

/** Next's default serverActions.bodySizeLimit (1 MB), which next.config.js keeps. */
export const SERVER_ACTION_BODY_LIMIT_BYTES = 1024 * 1024;

function refusal(status: number, code: string, error: string): Response {
  return Response.json({ error, code }, { status, headers: { "cache-control": "no-store" } });
}

/** The host an Origin header names, or null when it is "null", malformed or not http(s). */
function originHost(origin: string): string | null {
  if (!URL.canParse(origin)) return null;
  const url = new URL(origin);
  return url.protocol === "http:" || url.protocol === "https:" ? url.host : null;
}

/**
 * A 4xx for a server action request that Next would refuse with a 500, or null to let it through.
 * The host compared is the one Next compares: X-Forwarded-Host, else Host.
 */
export function refuseUnsafeServerAction(request: Request): Response | null {
  const origin = request.headers.get("origin");
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  if (origin !== null && (!host || originHost(origin) !== host)) {
    return refusal(403, "FORBIDDEN", "Cross-site request refused: the Origin header must name this site");
  }
  const length = request.headers.get("content-length");
  if (request.method === "POST" && length === null && request.body !== null) {
    return refusal(411, "LENGTH_REQUIRED", "A server action needs a Content-Length header");
  }
  if (length !== null && !(Number(length) <= SERVER_ACTION_BODY_LIMIT_BYTES)) {
    return refusal(
      413,
      "PAYLOAD_TOO_LARGE",
      `The request body is over the ${SERVER_ACTION_BODY_LIMIT_BYTES} bytes a server action accepts`,
    );
  }
  return null;
}

/**
 * Strings a text body may hold: an escaped "$" and the values written inline (undefined, NaN, the
 * infinities, -0, a date, a bigint). Any other "$" string points at another part of a multipart body
 * (a Map, a Blob, a promise, a server reference...), which a text body does not have.
 */
const INLINE_VALUE = /^\$(\$|undefined$|NaN$|Infinity$|-Infinity$|-0$|D|n-?\d+$)/;

function namesAnotherPart(value: unknown): boolean {
  if (typeof value === "string") return value.startsWith("$") && !INLINE_VALUE.test(value);
  if (Array.isArray(value)) return value.some(namesAnotherPart);
  if (value !== null && typeof value === "object") return Object.values(value).some(namesAnotherPart);
  return false;
}

/** Why a server action's text body cannot be decoded (the arguments as a JSON array, every value inline), or null. */
export function malformedActionBody(text: string): string | null {
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch {
    return "The body is not JSON";
  }
  if (!Array.isArray(args)) return "The body must be the action's arguments as a JSON array";
  return namesAnotherPart(args) ? "The body refers to parts only a multipart body has" : null;
}

/** A 400 for a server action whose text body Next could not decode; multipart bodies go to Next as they are. */
export async function refuseMalformedServerAction(request: Request): Promise<Response | null> {
  if (request.method !== "POST" || request.headers.get("content-type")?.startsWith("multipart/form-data")) return null;
  const problem = malformedActionBody(await request.clone().text());
  return problem ? refusal(400, "BAD_REQUEST", `Malformed server action: ${problem}`) : null;
}
