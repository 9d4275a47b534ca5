// Next's request proxy: runs only for server action requests (they carry a Next-Action header).
import { refuseUnsafeServerAction } from "@/lib/dashboard/refuse-unsafe-action";

export function proxy(request: Request): Response | undefined {
  return refuseUnsafeServerAction(request) ?? undefined;
}

export const config = {
  matcher: [{ source: "/:path*", has: [{ type: "header", key: "next-action" }] }],
};
