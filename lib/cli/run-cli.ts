// The admin CLI (`npm run cli -- <command> --flags`). Each command parses its flags with zod,
// calls a domain function and prints JSON on stdout; bad input exits non-zero with a message.
import { parseArgs } from "node:util";
import { z } from "zod";
import { AppError, isAppError } from "@/lib/errors";
import { parseAmount } from "@/lib/money";
import { prepareDatabase } from "@/lib/setup/prepare-database";
import { db } from "@/lib/db/client";
import { operatorSchema } from "@/lib/carriers/operators";
import { createAccount } from "@/lib/accounts/create-account";
import { createApiKey } from "@/lib/keys/create-api-key";
import { serializeCreatedKey } from "@/lib/keys/key-schemas";
import { creditBalance } from "@/lib/ledger/credit-balance";
import { addSender } from "@/lib/senders/add-sender";
import { approveSender } from "@/lib/senders/approve-sender";
import { createUser } from "@/lib/users/create-user";
import { createPlatformAdmin } from "@/lib/users/create-platform-admin";
import { roleSchema } from "@/lib/users/roles";
import { setRate } from "@/lib/rates/rates";
import { setAccountRateLimit } from "@/lib/accounts/set-account-rate-limit";
import { pauseCarrier, resumeCarrier } from "@/lib/carriers/carrier-pauses";
import { assignInboundNumber, releaseInboundNumber } from "@/lib/inbound/inbound-numbers";

const ACTOR = "cli";

type Command = {
  summary: string;
  flags: Record<string, { type: "string" | "boolean" }>;
  schema: z.ZodType;
  /** The flag a single positional argument fills (`carriers:pause econet`). */
  positional?: string;
  /** Runs after the database is prepared; `applied` names the migrations that preparation applied. */
  run: (flags: never, prepared: { applied: string[] }) => Promise<unknown>;
};

const amount = (name: string) =>
  z.string({ error: `--${name} is required` }).transform((text, ctx) => {
    try {
      return parseAmount(text);
    } catch {
      ctx.addIssue({ code: "custom", message: `--${name} must be an amount with at most four decimals, e.g. 25.50` });
      return z.NEVER;
    }
  });
const required = (name: string) =>
  z
    .string({ error: `--${name} is required` })
    .trim()
    .min(1, `--${name} cannot be blank`);

function command<S extends z.ZodType>(
  summary: string,
  flags: Record<string, { type: "string" | "boolean" }>,
  schema: S,
  run: (flags: z.infer<S>, prepared: { applied: string[] }) => Promise<unknown>,
): Command {
  return { summary, flags, schema, run: run as Command["run"] };
}

const operatorFlag = z.string({ error: "the carrier is required (econet, netone or telecel)" }).pipe(
  operatorSchema.catch(() => {
    throw new AppError("VALIDATION_ERROR", "the carrier must be one of econet, netone, telecel");
  }),
);

async function requireAccount(id: string): Promise<void> {
  if (!(await db().account.findUnique({ where: { id }, select: { id: true } }))) {
    throw new AppError("NOT_FOUND", `No account with id ${id}`);
  }
}

export const commands: Record<string, Command> = {
  migrate: command("Apply pending migrations", {}, z.object({}), async (_flags, prepared) => prepared),

  "accounts:create": command(
    "Create an account with an opening balance, approved sender ids and optionally an owner",
    {
      name: { type: "string" },
      currency: { type: "string" },
      balance: { type: "string" },
      sender: { type: "string" },
      "owner-email": { type: "string" },
      "owner-password": { type: "string" },
    },
    z
      .object({
        name: required("name"),
        currency: required("currency"),
        balance: amount("balance").refine((value) => value >= 0n, "--balance must not be negative"),
        sender: z.string().optional(),
        "owner-email": z.string().optional(),
        "owner-password": z.string().optional(),
      })
      .refine((flags) => !flags["owner-email"] === !flags["owner-password"], "--owner-email and --owner-password go together"),
    async (flags) => {
      const account = await createAccount({
        name: flags.name,
        currency: flags.currency,
        openingBalance: flags.balance,
        senders: flags.sender ? flags.sender.split(",").map((name) => name.trim()) : [],
        owner: flags["owner-email"] ? { email: flags["owner-email"], password: flags["owner-password"]! } : undefined,
        actor: ACTOR,
      });
      return account.ownerEmail ? { id: account.id, owner_email: account.ownerEmail } : { id: account.id };
    },
  ),

  "keys:create": command(
    "Create an API key; prints the spec's create response (the token is shown only here)",
    { account: { type: "string" }, name: { type: "string" }, test: { type: "boolean" } },
    z.object({ account: required("account"), name: required("name"), test: z.boolean().optional() }),
    async (flags) => {
      await requireAccount(flags.account);
      const key = await createApiKey({ accountId: flags.account, name: flags.name, mode: flags.test ? "test" : "live", actor: ACTOR });
      return serializeCreatedKey(key);
    },
  ),

  "balance:credit": command(
    "Credit an account's prepaid balance (a ledger row)",
    { account: { type: "string" }, amount: { type: "string" }, reason: { type: "string" } },
    z.object({
      account: required("account"),
      amount: amount("amount").refine((value) => value > 0n, "--amount must be greater than zero"),
      reason: z.string().optional(),
    }),
    async (flags) => {
      await requireAccount(flags.account);
      const { balance } = await creditBalance({ accountId: flags.account, amount: flags.amount, reason: flags.reason, actor: ACTOR });
      return { account: flags.account, balance: balance.toString() };
    },
  ),

  "senders:add": command(
    "Add a sender id (approved unless --pending)",
    { account: { type: "string" }, sender: { type: "string" }, pending: { type: "boolean" } },
    z.object({ account: required("account"), sender: required("sender"), pending: z.boolean().optional() }),
    async (flags) => {
      await requireAccount(flags.account);
      const sender = await addSender({ accountId: flags.account, name: flags.sender, approved: !flags.pending, actor: ACTOR });
      return { id: sender.id, sender: sender.name, status: sender.status };
    },
  ),

  "senders:approve": command(
    "Approve a pending sender id",
    { account: { type: "string" }, sender: { type: "string" } },
    z.object({ account: required("account"), sender: required("sender") }),
    async (flags) => {
      await requireAccount(flags.account);
      const sender = await approveSender({ accountId: flags.account, name: flags.sender, actor: ACTOR });
      return { id: sender.id, sender: sender.name, status: sender.status };
    },
  ),

  "users:create": command(
    "Create a dashboard user (owner|developer with --account; support|admin without)",
    { email: { type: "string" }, password: { type: "string" }, role: { type: "string" }, account: { type: "string" } },
    z.object({
      email: required("email"),
      password: required("password"),
      role: roleSchema.catch(() => {
        throw new AppError("VALIDATION_ERROR", "--role must be one of owner, developer, support, admin");
      }),
      account: z.string().optional(),
    }),
    async (flags) => {
      if (flags.account) await requireAccount(flags.account);
      const user = await createUser({
        email: flags.email,
        password: flags.password,
        role: flags.role,
        accountId: flags.account ?? null,
        actor: ACTOR,
      });
      return { id: user.id, email: user.email, role: user.role, account_id: user.accountId };
    },
  ),

  "users:create-admin": command(
    "Create a platform admin with a generated password, printed only here",
    { email: { type: "string" } },
    z.object({ email: required("email") }),
    async (flags) => createPlatformAdmin({ email: flags.email, actor: ACTOR }),
  ),

  "rates:set": command(
    "Set the price per segment of a carrier (platform default, or an account override with --account)",
    { operator: { type: "string" }, price: { type: "string" }, account: { type: "string" } },
    z.object({
      operator: z.string({ error: "--operator is required" }).pipe(
        operatorSchema.catch(() => {
          throw new AppError("VALIDATION_ERROR", "--operator must be one of econet, netone, telecel");
        }),
      ),
      price: amount("price").refine((value) => value >= 0n, "--price must not be negative"),
      account: z.string().optional(),
    }),
    async (flags) => {
      if (flags.account) await requireAccount(flags.account);
      await setRate({ operator: flags.operator, pricePerSegment: flags.price, accountId: flags.account ?? null, actor: ACTOR });
      return { operator: flags.operator, price_per_segment: flags.price.toString(), scope: flags.account ?? "default" };
    },
  ),

  "accounts:rate-limit": command(
    "Set the per-key request limit (requests per second) of an account; --limit default resets it",
    { account: { type: "string" }, limit: { type: "string" } },
    z.object({
      account: required("account"),
      limit: z
        .string({ error: "--limit is required" })
        .refine(
          (text) => text === "default" || /^[1-9]\d{0,6}$/.test(text),
          "--limit must be a whole number from 1 to 9999999, or default",
        ),
    }),
    async (flags) => {
      await requireAccount(flags.account);
      const limit = flags.limit === "default" ? null : Number(flags.limit);
      await setAccountRateLimit({ accountId: flags.account, limit, actor: ACTOR });
      return { account: flags.account, rate_limit_per_second: limit ?? "default" };
    },
  ),

  "numbers:assign": command(
    "Assign an inbound number or short code to an account, on one carrier (--operator) or on all",
    { account: { type: "string" }, number: { type: "string" }, operator: { type: "string" } },
    z.object({ account: required("account"), number: required("number"), operator: operatorFlag.optional() }),
    async (flags) => {
      await requireAccount(flags.account);
      const row = await assignInboundNumber({
        accountId: flags.account,
        number: flags.number,
        operator: flags.operator ?? null,
        actor: ACTOR,
      });
      return {
        id: row.id,
        number: row.number,
        account: row.accountId,
        operator: row.operator ?? "all",
        assigned_at: row.assignedAt.toISOString(),
      };
    },
  ),

  "numbers:release": command(
    "Release an inbound number (every carrier's assignment, or only --operator's)",
    { number: { type: "string" }, operator: { type: "string" } },
    z.object({ number: required("number"), operator: operatorFlag.optional() }),
    async (flags) => {
      const rows = await releaseInboundNumber({ number: flags.number, operator: flags.operator, actor: ACTOR });
      return { released: rows.map((row) => ({ number: row.number, account: row.accountId, operator: row.operator ?? "all" })) };
    },
  ),

  "carriers:pause": {
    ...command(
      "Stop sending a carrier's live messages (they stay queued) until carriers:resume; every worker follows within seconds",
      { operator: { type: "string" }, reason: { type: "string" } },
      z.object({ operator: operatorFlag, reason: required("reason") }),
      async (flags) => {
        const { pause, changed } = await pauseCarrier({ operator: flags.operator, reason: flags.reason, actor: ACTOR });
        return { operator: pause.operator, paused: true, reason: pause.reason, paused_at: pause.pausedAt.toISOString(), changed };
      },
    ),
    positional: "operator",
  },

  "carriers:resume": {
    ...command(
      "Send a paused carrier's queued messages again",
      { operator: { type: "string" } },
      z.object({ operator: operatorFlag }),
      async (flags) => {
        const { changed } = await resumeCarrier({ operator: flags.operator, actor: ACTOR });
        return { operator: flags.operator, paused: false, changed };
      },
    ),
    positional: "operator",
  },
};

export type CliResult = { code: number; stdout: string; stderr: string };

function commandUsage(name: string, spec: Command): string {
  const flags = Object.entries(spec.flags).map(([flag, { type }]) =>
    flag === spec.positional ? `<${flag}>` : type === "boolean" ? `[--${flag}]` : `--${flag} …`,
  );
  return `  ${name.padEnd(20)} ${spec.summary}\n  ${"".padEnd(20)} ${flags.join(" ")}`;
}

function usage(): string {
  const lines = Object.entries(commands).map(([name, spec]) => commandUsage(name, spec));
  return `Usage: npm run cli -- <command> [--flags]\n\nCommands:\n${lines.join("\n")}\n`;
}

function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, item) => (typeof item === "bigint" ? item.toString() : item), 2);
}

/** Runs one CLI command; never throws and never exits the process (scripts/cli.ts does). */
export async function runCli(argv: string[]): Promise<CliResult> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help")
    return { code: name ? 0 : 2, stdout: name ? usage() : "", stderr: name ? "" : usage() };
  const spec = commands[name];
  if (!spec) return { code: 2, stdout: "", stderr: `Unknown command "${name}".\n\n${usage()}` };
  if (rest.includes("--help") || rest.includes("-h")) return { code: 0, stdout: `${commandUsage(name, spec)}\n`, stderr: "" };

  let raw: Record<string, unknown>;
  try {
    const parsed = parseArgs({ args: rest, options: spec.flags, strict: true, allowPositionals: Boolean(spec.positional) });
    raw = parsed.values;
    if (parsed.positionals.length > 1) throw new Error(`one ${spec.positional} only, got ${parsed.positionals.join(" ")}`);
    if (spec.positional && parsed.positionals.length === 1) raw = { ...raw, [spec.positional]: parsed.positionals[0] };
  } catch (error) {
    return { code: 2, stdout: "", stderr: `${name}: ${(error as Error).message}\n\n${commandUsage(name, spec)}\n` };
  }
  try {
    const flags = spec.schema.safeParse(raw);
    if (!flags.success) return { code: 2, stdout: "", stderr: `${name}: ${flags.error.issues.map((issue) => issue.message).join("; ")}\n` };
    const prepared = await prepareDatabase();
    const result = await spec.run(flags.data as never, prepared);
    return { code: 0, stdout: `${jsonText(result)}\n`, stderr: "" };
  } catch (error) {
    if (isAppError(error)) {
      const fields = error.options.fields?.map((field) => `${field.field} ${field.description}`).join("; ");
      return { code: 1, stdout: "", stderr: `${name}: ${error.message}${fields ? ` (${fields})` : ""}\n` };
    }
    return { code: 1, stdout: "", stderr: `${name}: ${(error as Error).message}\n` };
  }
}
