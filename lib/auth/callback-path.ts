// Where to go after signing in: only a path on this site. A full URL, a protocol-relative "//host"
// or a backslash trick ("/\host", which browsers read as "//host") would make the sign-in page an
// open redirect.
const PLACEHOLDER_ORIGIN = "http://tumira.invalid";

/** The path itself when it stays on this origin, else null. */
export function sameOriginPath(text: string | null | undefined): string | null {
  if (!text || !text.startsWith("/") || text.startsWith("//") || text.includes("\\")) return null;
  if (!URL.canParse(text, PLACEHOLDER_ORIGIN)) return null;
  const url = new URL(text, PLACEHOLDER_ORIGIN);
  return url.origin === PLACEHOLDER_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : null;
}

/** The sign-in page, with the page to return to when there is one. */
export function loginPath(returnTo: string | null | undefined): string {
  const path = sameOriginPath(returnTo);
  return path && path !== "/" ? `/login?callbackUrl=${encodeURIComponent(path)}` : "/login";
}
