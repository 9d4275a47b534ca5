// Route handlers of the dashboard (app/api/dashboard/**): JSON for TanStack Query and the bulk
// upload. Each declares its permission here, as server actions do in defineAction; the wrapper
// refuses cross-site writes, checks the permission with the one guard, and turns domain errors into
// JSON with the right status.
import { AppError } from "@/lib/errors";
import { statusOf } from "@/lib/api/respond";
import { logger } from "@/lib/log";
import type { SessionUser } from "@/lib/auth/auth-options";
import type { Permission } from "@/lib/auth/permissions";
import { requireAnyPermission } from "@/lib/auth/require-permission";

export type DashboardErrorBody = { error: string; code: string; fields?: { field: string; description: string }[] };

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/** The host of an Origin header, or null when it is absent, "null" (sandboxed or privacy-redirected pages) or malformed. */
function originHost(origin: string | null): string | null {
  if (!origin || !URL.canParse(origin)) return null;
  return new URL(origin).host || null;
}

/** Writes must come from the dashboard's own pages: same Origin as the request's host, JSON body. */
function checkSameOrigin(request: Request): void {
  if (request.method === "GET" || request.method === "HEAD") return;
  const origin = originHost(request.headers.get("origin"));
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  if (!origin || !host || origin !== host) {
    throw new AppError("FORBIDDEN", "Cross-site request refused", { description: "The Origin header must name this site" });
  }
  if (!request.headers.get("content-type")?.startsWith("application/json")) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send JSON", { description: "Content-Type must be application/json" });
  }
}

function errorResponse(request: Request, error: unknown): Response {
  const appError = error instanceof AppError ? error : null;
  if (!appError || appError.code === "INTERNAL")
    logger.error({ err: error, path: new URL(request.url).pathname }, "dashboard route failed");
  const body: DashboardErrorBody =
    appError && appError.code !== "INTERNAL"
      ? { error: appError.message, code: appError.code, ...(appError.options.fields ? { fields: appError.options.fields } : {}) }
      : { error: "Something went wrong on our side; it has been logged", code: "INTERNAL" };
  return jsonResponse(appError ? statusOf(appError.code) : 500, body);
}

/**
 * A dashboard route handler that runs only for a signed-in user holding the permission (or one of
 * the permissions, for routes platform staff share with account users). What the handler returns is
 * sent as JSON, unless it is a Response already (a download).
 */
export function dashboardRoute<C = unknown>(
  permission: Permission | readonly Permission[],
  handler: (request: Request, user: SessionUser, context: C) => Promise<unknown>,
) {
  return async (request: Request, context: C): Promise<Response> => {
    try {
      checkSameOrigin(request);
      const user = await requireAnyPermission(typeof permission === "string" ? [permission] : permission);
      const result = await handler(request, user, context);
      return result instanceof Response ? result : jsonResponse(200, result);
    } catch (error) {
      return errorResponse(request, error);
    }
  };
}
