// Route handlers of the dashboard (app/api/dashboard/**): JSON for TanStack Query and the bulk
// upload. The handler checks its permission with the one guard (lib/auth/require-permission.ts);
// this wrapper refuses cross-site writes and turns domain errors into JSON with the right status.
import { AppError } from "@/lib/errors";
import { statusOf } from "@/lib/api/respond";
import { logger } from "@/lib/log";

export type DashboardErrorBody = { error: string; code: string; fields?: { field: string; description: string }[] };

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } });
}

/** Writes must come from the dashboard's own pages: same Origin as the request's host, JSON body. */
function checkSameOrigin(request: Request): void {
  if (request.method === "GET" || request.method === "HEAD") return;
  const origin = request.headers.get("origin");
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  if (!origin || !host || new URL(origin).host !== host) throw new AppError("FORBIDDEN", "Cross-site request refused");
  if (!request.headers.get("content-type")?.startsWith("application/json")) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send JSON", { description: "Content-Type must be application/json" });
  }
}

export function dashboardRoute<C>(handler: (request: Request, context: C) => Promise<unknown>) {
  return async (request: Request, context: C): Promise<Response> => {
    try {
      checkSameOrigin(request);
      return jsonResponse(200, await handler(request, context));
    } catch (error) {
      const appError = error instanceof AppError ? error : null;
      if (!appError || appError.code === "INTERNAL") logger.error({ err: error, path: new URL(request.url).pathname }, "dashboard route failed");
      const body: DashboardErrorBody = appError && appError.code !== "INTERNAL"
        ? { error: appError.message, code: appError.code, ...(appError.options.fields ? { fields: appError.options.fields } : {}) }
        : { error: "Something went wrong on our side; it has been logged", code: "INTERNAL" };
      return jsonResponse(appError ? statusOf(appError.code) : 500, body);
    }
  };
}
