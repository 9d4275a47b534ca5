import { handleApiRequest } from "@/lib/api/handle-api-request";

export const dynamic = "force-dynamic";
export const GET = handleApiRequest;
