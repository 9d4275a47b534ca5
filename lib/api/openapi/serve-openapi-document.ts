import { type ApiResponse, json } from "@/lib/api/respond";
import { buildOpenApiDocument } from "./openapi-document";

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

/** GET /api/v1/openapi.json, no authentication: the document is built once per process. */
export async function serveOpenApiDocument(): Promise<ApiResponse> {
  document ??= buildOpenApiDocument();
  return json(200, document, { "cache-control": "public, max-age=300" });
}
