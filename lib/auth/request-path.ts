/**
 * The path and query of a dashboard page request, set by proxy.ts (any value a client sends is
 * replaced), so a page's guard can send a signed-out visitor to sign in and back.
 */
export const REQUEST_PATH_HEADER = "x-tumira-request-path";
