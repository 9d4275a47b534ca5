// The one database handle of a process: a Prisma Client for the domain's ordinary queries and a raw
// `Sql` for hot paths, both on the engine DATABASE_URL names. The two Prisma Clients (generated
// from the same models) have the same API; the SQLite one's types stand for both.
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/sqlite";
import { PrismaClient as PostgresPrismaClient } from "./generated/postgres";
import { databaseKind, getEnv } from "@/lib/env";
import { DEFAULT_POOL_SIZE, openSql, requireOnPostgres, sqlitePath, type OpenSqlOptions, type Sql } from "./sql";

export type { PrismaClient };
export type Database = { kind: "sqlite" | "postgres"; url: string; prisma: PrismaClient; sql: Sql };

// On globalThis: Next's server bundle and the lean path share the one handle (and the setting below).
const globalForDb = globalThis as unknown as { tumiraDatabase?: Database; tumiraSqliteCheckpoints?: boolean };

export function getDatabase(): Database {
  globalForDb.tumiraDatabase ??= openDatabase(getEnv().DATABASE_URL, {
    checkpoints: globalForDb.tumiraSqliteCheckpoints ?? true,
    poolSize: getEnv().PG_POOL_SIZE,
  });
  return globalForDb.tumiraDatabase;
}

/** A cluster's HTTP worker, before its first query: the primary's thread checkpoints SQLite's WAL. */
export function leaveCheckpointsToPrimary(): void {
  globalForDb.tumiraSqliteCheckpoints = false;
}

export function db(): PrismaClient {
  return getDatabase().prisma;
}

export function sql(): Sql {
  return getDatabase().sql;
}

type SqliteAdapter = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;
type SqliteQueryable = Pick<SqliteAdapter, "queryRaw" | "executeRaw">;

/**
 * Prisma's LIKE on SQLite with a backslash as its escape character, as PostgreSQL's LIKE has by
 * default: Prisma emits `LIKE ?` without ESCAPE there, so a pattern could not hold a literal % or _,
 * and containsText's escaped patterns (lib/db/contains-text.ts) would not mean the same on both engines.
 */
class LikeEscapingSQLite3 extends PrismaBetterSQLite3 {
  override async connect(): Promise<SqliteAdapter> {
    const adapter = escapeLikes(await super.connect());
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (...args) => escapeLikes(await startTransaction(...args));
    return adapter;
  }
}

function escapeLikes<T extends SqliteQueryable>(queryable: T): T {
  const withEscape = (sql: string) => sql.replace(/ LIKE \?/g, " LIKE ? ESCAPE '\\'");
  const queryRaw = queryable.queryRaw.bind(queryable);
  const executeRaw = queryable.executeRaw.bind(queryable);
  queryable.queryRaw = (query) => queryRaw({ ...query, sql: withEscape(query.sql) });
  queryable.executeRaw = (query) => executeRaw({ ...query, sql: withEscape(query.sql) });
  return queryable;
}

function openDatabase(url: string, options?: OpenSqlOptions): Database {
  const kind = databaseKind(url);
  const raw = openSql(url, options);
  if (kind === "sqlite") {
    const adapter = new LikeEscapingSQLite3({ url: sqlitePath(url), timeout: 5000 });
    return { kind, url, prisma: takeWriteTurns(new PrismaClient({ adapter }), raw), sql: raw };
  }
  const { PrismaPg: PostgresAdapter } = requireOnPostgres("@prisma/adapter-pg") as { PrismaPg: typeof PrismaPg };
  const adapter = new PostgresAdapter({ connectionString: url, max: options?.poolSize ?? DEFAULT_POOL_SIZE });
  return { kind, url, prisma: new PostgresPrismaClient({ adapter }) as unknown as PrismaClient, sql: raw };
}

const WRITE_OPERATIONS = new Set([
  "create",
  "createMany",
  "createManyAndReturn",
  "update",
  "updateMany",
  "updateManyAndReturn",
  "upsert",
  "delete",
  "deleteMany",
]);

/** Prisma's writes on SQLite wait for the raw layer's open transaction instead of blocking on its lock. */
function takeWriteTurns(prisma: PrismaClient, raw: Sql): PrismaClient {
  return prisma.$extends({
    query: {
      $allModels: {
        $allOperations({ operation, args, query }) {
          return WRITE_OPERATIONS.has(operation) ? raw.withWriteTurn(() => query(args)) : query(args);
        },
      },
    },
  }) as unknown as PrismaClient;
}

export async function closeDatabase(): Promise<void> {
  const database = globalForDb.tumiraDatabase;
  globalForDb.tumiraDatabase = undefined;
  if (!database) return;
  await database.prisma.$disconnect();
  await database.sql.close();
}
