// What an API route is. The table of routes is lib/api/routes.ts; lib/api/handle-api-request.ts runs them.
import type { Logger } from "@/lib/log";
import type { ApiKeyAuth } from "./auth/authenticate-api-key";
import type { ApiResponse, ErrorShape, HeaderMap } from "./respond";

/** What handlers read of the request headers: Web Headers' get (case-insensitive, duplicates joined). */
export type RequestHeaders = Pick<Headers, "get">;

export type ApiContext = {
  /** Method and url are cheap; anything else builds the whole Web Request (lean path). */
  request: Request;
  headers: RequestHeaders;
  params: Record<string, string>;
  requestId: string;
  log: Logger;
  /** The body as read under the route's size limit (empty for bodiless requests). */
  body: Buffer;
  /** Headers for whatever this request answers, error responses included (e.g. RateLimit-*). */
  responseHeaders: HeaderMap;
  /** The API key, when the handler authenticates one: checked on the head, before the body is read. */
  auth?: ApiKeyAuth;
};

export type ApiHandler = ((context: ApiContext) => Promise<ApiResponse>) & {
  /**
   * The key check of a handler behind withApiKey, run on the request's head alone: a request it
   * refuses is answered before any of its body is read, so an unauthenticated client cannot make
   * the server hold a body.
   */
  authenticate?: (headers: RequestHeaders) => Promise<ApiKeyAuth>;
};

export type ApiRoute = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path pattern with :params, e.g. /api/v1/sms/:id */
  path: string;
  /** Error shape of this endpoint (spec 7.3). */
  errorShape: ErrorShape;
  /** Largest accepted body in bytes. */
  bodyLimit?: number;
  handler: ApiHandler;
};

export const SMALL_BODY_LIMIT = 64 * 1024;

type CompiledRoute = ApiRoute & { segments: string[] };

export function compileRoutes(routes: ApiRoute[]): CompiledRoute[] {
  return routes.map((route) => ({ ...route, segments: route.path.split("/").filter(Boolean) }));
}

export type RouteMatch =
  | { kind: "found"; route: CompiledRoute; params: Record<string, string> }
  | { kind: "method-not-allowed"; route: CompiledRoute; allowed: string[] }
  | { kind: "not-found" };

export function matchRoute(routes: CompiledRoute[], method: string, pathname: string): RouteMatch {
  const parts = pathname.split("/").filter(Boolean);
  const pathMatches: { route: CompiledRoute; params: Record<string, string> }[] = [];
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = route.segments.every((segment, index) => {
      if (segment.startsWith(":")) {
        params[segment.slice(1)] = safeDecode(parts[index]);
        return true;
      }
      return segment === parts[index];
    });
    if (matches) pathMatches.push({ route, params });
  }
  const found = pathMatches.find((match) => match.route.method === method);
  if (found) return { kind: "found", ...found };
  if (pathMatches.length > 0) {
    const allowed = [...new Set(pathMatches.map((match) => match.route.method))];
    return { kind: "method-not-allowed", route: pathMatches[0].route, allowed };
  }
  return { kind: "not-found" };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
