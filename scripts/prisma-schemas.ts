// The PostgreSQL schema is derived from prisma/schema.prisma (the SQLite source) so the two can
// never disagree on a model. Only the generator output and the datasource provider change.
import fs from "node:fs";
import path from "node:path";

export const root = process.cwd();
export const sqliteSchemaPath = path.join(root, "prisma", "schema.prisma");
export const postgresSchemaPath = path.join(root, "prisma", "generated", "postgres.prisma");

export function derivePostgresSchema(sqliteSchema: string): string {
  return sqliteSchema
    .replace('output     = "../lib/db/generated/sqlite"', 'output     = "../../lib/db/generated/postgres"')
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('url      = "file:./data/tumira.db"', 'url      = "postgresql://localhost/tumira"');
}

export function writePostgresSchema(): string {
  const derived = derivePostgresSchema(fs.readFileSync(sqliteSchemaPath, "utf8"));
  if (!derived.includes('provider = "postgresql"') || !derived.includes("generated/postgres")) {
    throw new Error("prisma/schema.prisma no longer matches the pattern derivePostgresSchema expects");
  }
  fs.mkdirSync(path.dirname(postgresSchemaPath), { recursive: true });
  fs.writeFileSync(postgresSchemaPath, derived);
  return postgresSchemaPath;
}
