// Server actions refused before Next runs them. Next aborts a cross-site action and one over its
// body limit by throwing, which answers 500; these answer the client's mistake as a 4xx naming it.
// Next's own checks stay in place behind this one.

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
