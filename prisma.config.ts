// Prisma CLI configuration. The JS schema engine with a driver adapter runs offline (no engine
// download). Only schema-to-schema commands are used (generate, validate, migrate diff); migrations
// are applied by lib/db/migrate.ts, see README "Database".
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

export default defineConfig({
  engine: "js",
  experimental: { adapter: true },
  schema: path.join("prisma", "schema.prisma"),
  adapter: async () => new PrismaBetterSQLite3({ url: ":memory:" }),
});
