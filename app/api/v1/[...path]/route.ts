// Next serves the API in `next dev`; the production server answers /api/v1/* on its lean path.
// Both call the same function.
import { handleApiRequest } from "@/lib/api/handle-api-request";

export const dynamic = "force-dynamic";
export const GET = handleApiRequest;
export const POST = handleApiRequest;
export const PUT = handleApiRequest;
export const PATCH = handleApiRequest;
export const DELETE = handleApiRequest;
