import { getDatabase } from "@/lib/db/client";
import { getMigrationStatus } from "@/lib/db/migrate";
import { type ApiResponse, json } from "@/lib/api/respond";

/** GET /api/health: 200 when the database answers and its schema is current, else 503. */
export async function handleHealth(): Promise<ApiResponse> {
  const database = getDatabase();
  try {
    const schema = await getMigrationStatus(database.sql);
    return json(schema.current ? 200 : 503, {
      status: schema.current ? "ok" : "degraded",
      database: database.kind,
      schema: { current: schema.current, applied: schema.applied.length, pending: schema.pending },
    });
  } catch (error) {
    return json(503, { status: "down", database: database.kind, error: (error as Error).message });
  }
}
