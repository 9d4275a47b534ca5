// Configuration: every environment variable is parsed and validated here, once. A bad value stops
// the start with a message naming the variable. `.env.example` documents each one.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import os from "node:os";
import { z } from "zod";

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((value) => value === "true" || value === "1" || value === "yes");

const carrierUrl = z
  .string()
  .regex(/^\s*smpp:\/\//, "must be an smpp://system_id:password@host:port URL, or several separated by commas")
  .optional();
/** How a carrier with several binds uses them: all together, or a primary and its standbys. */
const carrierMode = z.enum(["shared", "failover"]).default("shared");
const failoverAfterSeconds = z.coerce.number().int().min(1).max(3600).default(30);
const givebackHoldSeconds = z.coerce.number().int().min(0).max(3600).default(10);

const logLevelSchema = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info");

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string()
    .refine((url) => url.startsWith("file:") || /^postgres(ql)?:\/\//.test(url), "must be file:<path> or postgresql://…")
    .optional(),
  /** PostgreSQL connections per process, for raw SQL and for Prisma each. */
  PG_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  HOST: z.string().min(1).default("0.0.0.0"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: logLevelSchema,
  DATA_DIR: z.string().min(1).default("./data"),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  APP_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  NEXTAUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  NEXTAUTH_URL: z.string().url().optional(),
  RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(1).default(200),
  RUN_DISPATCHER: booleanFlag.default(true),
  /** `npm run worker` answers /api/health, /api/ping and /metrics on this port (unset: no HTTP). */
  WORKER_HTTP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  DELIVERY_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(30),
  /** A carrier-accepted message with no receipt after this long is settled as sent (docs/delivery.md, Receipts). */
  RECEIPT_TIMEOUT_HOURS: z.coerce.number().int().min(1).max(8760).default(72),
  /** How long the parts of a concatenated inbound message wait for the rest before it is stored incomplete. */
  INBOUND_REASSEMBLY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  SMSC_SIMULATOR: z.enum(["auto", "on", "off"]).default("auto"),
  SMSC_SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(2775),
  /** The simulator also listens here, as a carrier's second host (0: any free port). */
  SMSC_SIMULATOR_SECOND_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  SMSC_SIMULATOR_TPS: z.coerce.number().int().min(1).default(1000),
  SMSC_SIMULATOR_DLR_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  SMPP_ECONET: carrierUrl,
  SMPP_NETONE: carrierUrl,
  SMPP_TELECEL: carrierUrl,
  SMPP_ECONET_MODE: carrierMode,
  SMPP_NETONE_MODE: carrierMode,
  SMPP_TELECEL_MODE: carrierMode,
  /** failover: seconds the primary bind is down before a standby takes over. */
  SMPP_ECONET_FAILOVER_AFTER_SECONDS: failoverAfterSeconds,
  SMPP_NETONE_FAILOVER_AFTER_SECONDS: failoverAfterSeconds,
  SMPP_TELECEL_FAILOVER_AFTER_SECONDS: failoverAfterSeconds,
  /** failover: seconds the primary stays bound again before it takes its traffic back from the standby. */
  SMPP_ECONET_GIVEBACK_HOLD_SECONDS: givebackHoldSeconds,
  SMPP_NETONE_GIVEBACK_HOLD_SECONDS: givebackHoldSeconds,
  SMPP_TELECEL_GIVEBACK_HOLD_SECONDS: givebackHoldSeconds,
  WEBHOOK_ALLOW_PRIVATE: booleanFlag.optional(),
  /** The Demo account on an empty database when the server starts. */
  SEED_DEMO: booleanFlag.optional(),
  TRUST_PROXY: booleanFlag.default(false),
  /** The lean HTTP path (docs/decisions/0001-own-http1-path.md); false: every request through node:http. */
  HTTP_LEAN_PATH: booleanFlag.default(true),
  /** MiB that API request bodies being read may hold at once in one process (lib/api/body-memory.ts); at least one bulk body. */
  HTTP_BODY_MEMORY_MB: z.coerce.number().int().min(8, "must be at least 8 (one bulk send's largest body)").max(65_536).default(64),
  /** Processes serving HTTP: 1 (no cluster), N (a primary and N node:cluster workers), or `auto` (one per core). */
  HTTP_PROCESSES: z
    .string()
    .regex(/^(auto|[1-9]\d*)$/, "must be a positive whole number or auto")
    .transform((value) => (value === "auto" ? os.availableParallelism() : Number(value)))
    .default(1),
});

/** Every variable this module reads: `.env.example` and docs/operations.md describe each. */
export const ENV_VARIABLES = Object.keys(envSchema.shape);

export type Env = z.infer<typeof envSchema> & {
  DATABASE_URL: string;
  APP_SECRET: string;
  NEXTAUTH_SECRET: string;
  NEXTAUTH_URL: string;
  WEBHOOK_ALLOW_PRIVATE: boolean;
  SEED_DEMO: boolean;
};

let cached: Env | undefined;

let dotEnvRead = false;

/** A .env file in the working directory fills in what the environment does not set (never under tests). */
function readDotEnvFile(): void {
  if (dotEnvRead) return;
  dotEnvRead = true;
  if (process.env.NODE_ENV !== "test" && fs.existsSync(".env")) process.loadEnvFile(".env");
}

/**
 * LOG_LEVEL on its own: the logger is made when lib/log.ts is first imported, before a process
 * reads the rest of its configuration. Read from the environment or .env, and checked like the rest.
 */
export function getLogLevel(source: Record<string, string | undefined> = process.env): z.infer<typeof logLevelSchema> {
  if (source === process.env) readDotEnvFile();
  const parsed = logLevelSchema.safeParse(source.LOG_LEVEL || undefined);
  if (!parsed.success) throw new Error(`Invalid configuration:\n  LOG_LEVEL: ${parsed.error.issues[0].message}`);
  return parsed.data;
}

export function getEnv(): Env {
  if (!cached) {
    readDotEnvFile();
    cached = loadEnv(process.env);
    // next-auth reads NEXTAUTH_URL from the environment itself: the same value, never a blank one.
    if (!process.env.NEXTAUTH_URL) process.env.NEXTAUTH_URL = cached.NEXTAUTH_URL;
  }
  return cached;
}

/** Tests change process.env between files; this forgets the parsed copy. */
export function resetEnvForTests(): void {
  cached = undefined;
}

export function loadEnv(source: Record<string, string | undefined>): Env {
  const blanksRemoved = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const parsed = envSchema.safeParse(blanksRemoved);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${problems.join("\n")}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const secrets = env.APP_SECRET && env.NEXTAUTH_SECRET ? undefined : readOrCreateLocalSecrets(dataDir);
  return {
    ...env,
    DATA_DIR: dataDir,
    DATABASE_URL: env.DATABASE_URL ?? `file:${path.join(dataDir, "tumira.db")}`,
    APP_SECRET: env.APP_SECRET ?? secrets!.appSecret,
    NEXTAUTH_SECRET: env.NEXTAUTH_SECRET ?? secrets!.nextAuthSecret,
    NEXTAUTH_URL: env.NEXTAUTH_URL ?? `http://localhost:${env.PORT}`,
    WEBHOOK_ALLOW_PRIVATE: env.WEBHOOK_ALLOW_PRIVATE ?? env.NODE_ENV !== "production",
    SEED_DEMO: env.SEED_DEMO ?? env.NODE_ENV === "development",
  };
}

type LocalSecrets = { appSecret: string; nextAuthSecret: string };

/**
 * A fresh clone must run with no configuration, so unset secrets are generated once and kept in
 * DATA_DIR/secrets.json (mode 0600). Deployments set APP_SECRET and NEXTAUTH_SECRET instead.
 * Processes starting together on a new DATA_DIR (a server and a worker, two `migrate`s) agree on
 * one file: each writes its candidate aside and hard-links it into place, which fails for all but
 * the first; the others read that one, complete since the moment it appeared.
 */
function readOrCreateLocalSecrets(dataDir: string): LocalSecrets {
  const file = path.join(dataDir, "secrets.json");
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8"));
  fs.mkdirSync(dataDir, { recursive: true });
  return publishLocalSecrets(file, {
    appSecret: crypto.randomBytes(32).toString("base64url"),
    nextAuthSecret: crypto.randomBytes(32).toString("base64url"),
  });
}

/** `secrets` as the file's content, or the content another process published there first. */
export function publishLocalSecrets(file: string, secrets: LocalSecrets): LocalSecrets {
  const candidate = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  fs.writeFileSync(candidate, JSON.stringify(secrets), { mode: 0o600, flag: "wx" });
  try {
    fs.linkSync(candidate, file);
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } finally {
    fs.rmSync(candidate, { force: true });
  }
}

export function databaseKind(url: string): "sqlite" | "postgres" {
  return url.startsWith("file:") ? "sqlite" : "postgres";
}
