// Raw SQL for the hot paths (sends, queue claims, ledger) on either engine, behind one small
// interface. Statements are written with `?` placeholders bound by position, or `:name` placeholders
// bound from an object (long statements); what must differ per engine lives in that engine's store
// (lib/db/stores).
import Database from "better-sqlite3";
import type pg from "pg";
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { leaveCheckpointsToThread, startCheckpointer } from "./sqlite-checkpointer";

export type Dialect = "sqlite" | "postgres";
export type Row = Record<string, unknown>;
/** Values by position for `?`, or by name for `:name`. */
export type Params = readonly unknown[] | Readonly<Record<string, unknown>>;

export type QueryOptions = {
  /**
   * PostgreSQL: run as a named statement, parsed and planned once per connection, not per call. For
   * hot statements with a handful of texts (batches padded to powers of two) that name their result
   * columns: a `*` whose table a migration changed would fail as a cached plan. The message read went
   * from 4,400-5,800 to 8,200-8,400 reads/s with it; the send path's statements (inserts, ledger,
   * pricing, key check) gave 3,100-3,160 against 2,600-2,760 sends/s in two of three alternating
   * pairs, 2,560 against 2,760 in the third. SQLite prepares every statement anyway.
   */
  prepared?: boolean;
};

export interface SqlExecutor {
  readonly dialect: Dialect;
  all<T = Row>(text: string, params?: Params, options?: QueryOptions): Promise<T[]>;
  get<T = Row>(text: string, params?: Params, options?: QueryOptions): Promise<T | undefined>;
  /** Runs a statement and returns the number of rows it changed. */
  run(text: string, params?: Params, options?: QueryOptions): Promise<number>;
}

export interface Sql extends SqlExecutor {
  /** Runs fn in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Runs a multi-statement script (migrations), no parameters. */
  exec(script: string): Promise<void>;
  /**
   * Runs work that writes through another connection (Prisma's) while no transaction of this handle
   * is open. SQLite: a write waiting on a lock held by the same thread would block that thread for
   * the whole busy timeout, so this process's writes take turns. PostgreSQL: runs it directly.
   */
  withWriteTurn<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Timestamps are written as ISO-8601 text on SQLite (as Prisma's adapter does) and UTC on PostgreSQL. */
export function toDbTime(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

/** SQL for the "YYYY-MM-DD" day of a timestamp column (SQLite keeps ISO-8601 text, PostgreSQL timestamps). */
export function dayOfColumn(executor: { readonly dialect: Dialect }, column: string): string {
  return executor.dialect === "sqlite" ? `substr(${column}, 1, 10)` : `to_char(${column}, 'YYYY-MM-DD')`;
}

/** Whether a statement (raw SQL or Prisma's, P2002) failed on a unique index or primary key, on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const code = error instanceof Error && "code" in error ? error.code : undefined;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "P2002";
}

export function fromDbTime(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

export function fromDbTimeOrNull(value: unknown): Date | null {
  return value === null || value === undefined ? null : fromDbTime(value);
}

type NamedStatement = {
  /** With `?` placeholders, and the name of each in order (a name may appear more than once). */
  text: string;
  names: string[];
  /** PostgreSQL's form: `$n` placeholders, each name bound once, in the order of `distinctNames`. */
  numberedText: string;
  distinctNames: string[];
};

const namedStatements = new Map<string, NamedStatement>();

/**
 * A statement with `:name` placeholders as one with `?` placeholders and as one with `$n`
 * placeholders. Quoted text and PostgreSQL's `::` casts are left alone.
 */
function toPositional(text: string): NamedStatement {
  const cached = namedStatements.get(text);
  if (cached) return cached;
  const names: string[] = [];
  const distinctNames: string[] = [];
  let converted = "";
  let numbered = "";
  let quote: string | null = null;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quote) {
      if (char === quote) quote = null;
      converted += char;
      numbered += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      converted += char;
      numbered += char;
      continue;
    }
    const name = char === ":" && text[index - 1] !== ":" && text[index + 1] !== ":" ? /^[A-Za-z_]\w*/.exec(text.slice(index + 1)) : null;
    if (name) {
      names.push(name[0]);
      if (!distinctNames.includes(name[0])) distinctNames.push(name[0]);
      converted += "?";
      numbered += `$${distinctNames.indexOf(name[0]) + 1}`;
      index += name[0].length;
    } else {
      converted += char;
      numbered += char;
    }
  }
  const statement = { text: converted, names, numberedText: numbered, distinctNames };
  namedStatements.set(text, statement);
  return statement;
}

function valuesByName(names: string[], params: Readonly<Record<string, unknown>>): unknown[] {
  return names.map((name) => {
    if (!(name in params)) throw new Error(`no value for :${name}`);
    return params[name];
  });
}

/** The statement and its values by position, whichever way they were given. */
function bindParams(text: string, params: Params = []): { text: string; values: readonly unknown[] } {
  if (Array.isArray(params)) return { text, values: params };
  const statement = toPositional(text);
  return { text: statement.text, values: valuesByName(statement.names, params as Readonly<Record<string, unknown>>) };
}

/** PostgreSQL's form of the statement: `$n` placeholders, a name that appears more than once bound once. */
function bindPostgresParams(text: string, params: Params = []): { text: string; values: readonly unknown[] } {
  if (Array.isArray(params)) return { text: toPostgresPlaceholders(text), values: params };
  const statement = toPositional(text);
  return { text: statement.numberedText, values: valuesByName(statement.distinctNames, params as Readonly<Record<string, unknown>>) };
}

export type OpenSqlOptions = {
  /**
   * SQLite: run this database's WAL checkpoints on a thread of this process (the default). A
   * cluster's HTTP workers pass false: their primary's thread checkpoints what they write.
   */
  checkpoints?: boolean;
  /** PostgreSQL: the most connections this pool opens (PG_POOL_SIZE for the server's own database). */
  poolSize?: number;
};

export const DEFAULT_POOL_SIZE = 10;

export function openSql(databaseUrl: string, { checkpoints = true, poolSize = DEFAULT_POOL_SIZE }: OpenSqlOptions = {}): Sql {
  return databaseUrl.startsWith("file:") ? openSqlite(sqlitePath(databaseUrl), checkpoints) : openPostgres(databaseUrl, poolSize);
}

export function sqlitePath(databaseUrl: string): string {
  const file = databaseUrl.slice("file:".length);
  return file === ":memory:" ? file : path.resolve(file);
}

// ---------------------------------------------------------------------------------------------
// SQLite: one writer connection, serialised by a queue so an async transaction never interleaves
// with another, and one reader connection for reads outside transactions (WAL gives it the last
// committed state, never another caller's uncommitted writes).

function bindSqlite(params: readonly unknown[]): unknown[] {
  return params.map((value) => {
    if (value === undefined) return null;
    if (typeof value === "boolean") return value ? 1 : 0;
    if (value instanceof Date) return toDbTime(value);
    return value;
  });
}

export function configureSqlite(db: Database.Database): void {
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  // Statement journals (every multi-row write inside a transaction keeps one, to undo that statement
  // alone) stay in memory: spilled to a temporary file they cost a file created and unlinked per
  // transaction and two writes per page, 5 of the 13 page writes of a single send with two workers.
  db.pragma("temp_store = MEMORY");
}

class SqliteExecutor implements SqlExecutor {
  readonly dialect = "sqlite" as const;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(readonly db: Database.Database) {}

  isReadOnly(text: string): boolean {
    return this.prepare(bindParams(text).text).readonly;
  }

  private prepare(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  allSync<T>(named: string, params?: Params): T[] {
    const { text, values } = bindParams(named, params);
    const statement = this.prepare(text);
    if (statement.reader) return statement.all(...bindSqlite(values)) as T[];
    statement.run(...bindSqlite(values));
    return [];
  }

  runSync(named: string, params?: Params): number {
    const { text, values } = bindParams(named, params);
    const statement = this.prepare(text);
    if (statement.reader) return statement.all(...bindSqlite(values)).length;
    return statement.run(...bindSqlite(values)).changes;
  }

  async all<T = Row>(text: string, params?: Params): Promise<T[]> {
    return this.allSync<T>(text, params);
  }

  async get<T = Row>(text: string, params?: Params): Promise<T | undefined> {
    return this.allSync<T>(text, params)[0];
  }

  async run(text: string, params?: Params): Promise<number> {
    return this.runSync(text, params);
  }
}

function openSqlite(file: string, checkpoints: boolean): Sql {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const writerDb = new Database(file);
  configureSqlite(writerDb);
  // Another process's write lock is waited for on a timer (retryWhileBusy), never by SQLite's busy
  // handler, which sleeps the whole thread and with it every request of this process.
  writerDb.pragma("busy_timeout = 0");
  const writer = new SqliteExecutor(writerDb);
  const readerDb = file === ":memory:" ? writerDb : new Database(file, { readonly: false });
  if (readerDb !== writerDb) configureSqlite(readerDb);
  const reader = new SqliteExecutor(readerDb);
  // Checkpoints run on a thread of their own: on the writer they would stall the event loop (decision 0004).
  if (file !== ":memory:") leaveCheckpointsToThread(writerDb);
  const checkpointer = file !== ":memory:" && checkpoints ? startCheckpointer(file) : null;
  let queue: Promise<unknown> = Promise.resolve();

  function serialise<T>(work: () => Promise<T>): Promise<T> {
    const result = queue.then(work, work);
    queue = result.catch(() => undefined);
    return result;
  }

  const write = <T>(statement: () => T) => serialise(() => retryWhileBusy(statement));

  return {
    dialect: "sqlite",
    all: (text, params) => (reader.isReadOnly(text) ? reader.all(text, params) : write(() => writer.allSync(text, params))),
    get: (text, params) => (reader.isReadOnly(text) ? reader.get(text, params) : write(() => writer.allSync<never>(text, params)[0])),
    run: (text, params) => write(() => writer.runSync(text, params)),
    transaction: (fn) =>
      serialise(async () => {
        await retryWhileBusy(() => writerDb.exec("BEGIN IMMEDIATE"));
        try {
          const result = await fn(writer);
          writerDb.exec("COMMIT");
          return result;
        } catch (error) {
          if (writerDb.inTransaction) writerDb.exec("ROLLBACK");
          throw error;
        }
      }),
    exec: (script) => write(() => void writerDb.exec(script)),
    withWriteTurn: serialise,
    close: async () => {
      await queue;
      await checkpointer?.stop();
      if (readerDb !== writerDb) readerDb.close();
      writerDb.close();
    },
  };
}

const BUSY_TIMEOUT_MS = 10_000;
/**
 * Another process's group commit holds the lock for a few milliseconds at most, so a longer wait
 * between tries only adds latency to the sends that wait (decision 0012).
 */
const BUSY_RETRY_MAX_MS = 2;

/**
 * Runs a statement that takes SQLite's write lock, retrying while another process holds it. The
 * failed attempt changed nothing (SQLITE_BUSY is returned before any write), so a retry is safe.
 */
async function retryWhileBusy<T>(statement: () => T): Promise<T> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let delayMs = 1; ; delayMs = Math.min(delayMs * 2, BUSY_RETRY_MAX_MS)) {
    try {
      return statement();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== "string" || !code.startsWith("SQLITE_BUSY") || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: a pool; `?` placeholders become $1, $2… (outside quoted text).

const TIMESTAMP_OID = 1114;
const INT8_OID = 20;
/**
 * Required only when a process opens PostgreSQL: on SQLite it would only add to every process's memory.
 * Resolved from the project root (the working directory, as for migrations), which holds wherever
 * this module runs: its source, the server built into dist/, Next's server build.
 */
export const requireOnPostgres = createRequire(path.join(process.cwd(), "package.json"));
let loadedPg: typeof pg | undefined;

function loadPg(): typeof pg {
  if (loadedPg) return loadedPg;
  loadedPg = requireOnPostgres("pg") as typeof pg;
  loadedPg.types.setTypeParser(TIMESTAMP_OID, (text) => `${text.replace(" ", "T")}Z`);
  loadedPg.types.setTypeParser(INT8_OID, (text) => Number(text));
  return loadedPg;
}

const placeholderCache = new Map<string, string>();

function toPostgresPlaceholders(text: string): string {
  const cached = placeholderCache.get(text);
  if (cached) return cached;
  let index = 0;
  let quote: string | null = null;
  let converted = "";
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = null;
      converted += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      converted += char;
    } else if (char === "?") {
      converted += `$${++index}`;
    } else {
      converted += char;
    }
  }
  placeholderCache.set(text, converted);
  return converted;
}

const statementNames = new Map<string, string>();

/** One name per statement text: node-postgres prepares a name once per connection and refuses a second text under it. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `tumira_${crypto.createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

function bindPostgres(params: readonly unknown[]): unknown[] {
  return params.map((value) => {
    if (value === undefined) return null;
    if (value instanceof Date) return value.toISOString();
    if (typeof value === "bigint") return value.toString();
    return value;
  });
}

class PostgresExecutor implements SqlExecutor {
  readonly dialect = "postgres" as const;
  constructor(private readonly client: pg.Pool | pg.PoolClient) {}

  private query(named: string, params: Params, options: QueryOptions): Promise<pg.QueryResult> {
    const { text, values } = bindPostgresParams(named, params);
    const name = options.prepared ? statementName(text) : undefined;
    return this.client.query({ name, text, values: bindPostgres(values) });
  }

  async all<T = Row>(text: string, params: Params = [], options: QueryOptions = {}): Promise<T[]> {
    return (await this.query(text, params, options)).rows as T[];
  }

  async get<T = Row>(text: string, params?: Params, options?: QueryOptions): Promise<T | undefined> {
    return (await this.all<T>(text, params, options))[0];
  }

  async run(text: string, params: Params = [], options: QueryOptions = {}): Promise<number> {
    return (await this.query(text, params, options)).rowCount ?? 0;
  }
}

function openPostgres(url: string, poolSize: number): Sql {
  const pool = new (loadPg().Pool)({ connectionString: url, max: poolSize });
  pool.on("error", () => undefined); // an idle client's error is reported on its next use
  const executor = new PostgresExecutor(pool);
  return {
    dialect: "postgres",
    all: (text, params, options) => executor.all(text, params, options),
    get: (text, params, options) => executor.get(text, params, options),
    run: (text, params, options) => executor.run(text, params, options),
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(new PostgresExecutor(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    exec: async (script) => void (await pool.query(script)),
    withWriteTurn: (work) => work(),
    close: () => pool.end(),
  };
}
