// What an API route is. The table of routes is lib/api/routes.ts; lib/api/handle-api-request.ts runs them.
import type { ApiKeyAuth } from "./auth/authenticate-api-key";
import type { RequestLog } from "./request-log";
import type { ApiResponse, ErrorShape, HeaderMap } from "./respond";

/** What handlers read of the request headers: Web Headers' get (case-insensitive, duplicates joined). */
export type RequestHeaders = Pick<Headers, "get">;

export type ApiContext = {
  /** Method and url are cheap; anything else builds the whole Web Request (lean path). */
  request: Request;
  headers: RequestHeaders;
  params: Record<string, string>;
  requestId: string;
  log: RequestLog;
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

/** The routes by their number of path segments: a request is compared only with routes of its length. */
export type RouteTable = Map<number, CompiledRoute[]>;

export function compileRoutes(routes: ApiRoute[]): RouteTable {
  const table: RouteTable = new Map();
  for (const route of routes) {
    const segments = route.path.split("/").filter(Boolean);
    table.set(segments.length, [...(table.get(segments.length) ?? []), { ...route, segments }]);
  }
  return table;
}

export type RouteMatch =
  | { kind: "found"; route: CompiledRoute; params: Record<string, string> }
  | { kind: "method-not-allowed"; route: CompiledRoute; allowed: string[] }
  | { kind: "not-found" };

/** The first route whose path and method match; else whether some path matched (with its methods). */
export function matchRoute(table: RouteTable, method: string, pathname: string): RouteMatch {
  const parts = pathname.split("/").filter(Boolean);
  let pathMatch: CompiledRoute | undefined;
  const allowed: string[] = [];
  for (const route of table.get(parts.length) ?? []) {
    const params = matchSegments(route.segments, parts);
    if (!params) continue;
    if (route.method === method) return { kind: "found", route, params };
    pathMatch ??= route;
    if (!allowed.includes(route.method)) allowed.push(route.method);
  }
  return pathMatch ? { kind: "method-not-allowed", route: pathMatch, allowed } : { kind: "not-found" };
}

/** The path's :params when its parts match the route's segments, else null. */
function matchSegments(segments: string[], parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index];
    if (segment.startsWith(":")) params[segment.slice(1)] = safeDecode(parts[index]);
    else if (segment !== parts[index]) return null;
  }
  return params;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
