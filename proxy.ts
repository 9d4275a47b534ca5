// Next's request proxy. Server actions (a Next-Action header) are refused with a 4xx where Next
// would answer 500 (a foreign origin, an oversized or undecodable body); dashboard pages get their
// own path as a request header, for the sign-in redirect to come back to.
import { NextResponse, type NextRequest } from "next/server";
import { REQUEST_PATH_HEADER } from "@/lib/auth/request-path";
import { refuseMalformedServerAction, refuseUnsafeServerAction } from "@/lib/dashboard/refuse-unsafe-action";

export async function proxy(request: NextRequest): Promise<Response> {
  if (request.headers.has("next-action")) {
    const refusal = refuseUnsafeServerAction(request) ?? (await refuseMalformedServerAction(request));
    if (refusal) return refusal;
  }
  const headers = new Headers(request.headers);
  headers.set(REQUEST_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  matcher: ["/dashboard", "/dashboard/:path*", { source: "/:path*", has: [{ type: "header", key: "next-action" }] }],
};
