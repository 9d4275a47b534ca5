import type { ApiRoute } from "@/lib/api/route";

export const accountRoutes: ApiRoute[] = [];
