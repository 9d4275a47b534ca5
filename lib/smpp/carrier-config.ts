// Where each carrier's SMSC is and how to talk to it, from SMPP_ECONET / SMPP_NETONE / SMPP_TELECEL:
//   smpp://system_id:password@host:port?system_type=&tps=100&window=10
// or several such URLs separated by commas, one per bind: used together (SMPP_<CARRIER>_MODE=shared,
// the carrier's tps shared by all, each bind its own window) or as primary and standbys
// (SMPP_<CARRIER>_MODE=failover, in the order given). A carrier without a URL goes to the SMSC
// simulator (in-process, or `npm run smsc`) on 127.0.0.1:SMSC_SIMULATOR_PORT, paced at SMSC_SIMULATOR_TPS.
import { z } from "zod";
import type { Env } from "@/lib/env";
import { operators, type Operator } from "@/lib/carriers/operators";

export type CarrierConfig = {
  operator: Operator;
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType: string;
  /** Submits per second the carrier allows (over any second). */
  tps: number;
  /** submit_sm sent and not yet answered, at most. */
  window: number;
  /** True when this is the SMSC simulator, not a real carrier. */
  simulated: boolean;
};

/** primary: the carrier's only bind, or the one a standby stands in for; shared: one of binds used together. */
export const bindRoles = ["primary", "standby", "shared"] as const;
export type BindRole = (typeof bindRoles)[number];

export type CarrierBinds = {
  operator: Operator;
  /** shared: every bind sends; failover: the primary sends, a standby while the primary is down. */
  mode: "shared" | "failover";
  /** In order: the primary first in failover mode. */
  binds: (CarrierConfig & { role: BindRole })[];
  /** The carrier's submits per second over all its binds. */
  tps: number;
  /** failover: how long the primary is down before a standby takes over. */
  failoverAfterMs: number;
  /** failover: how long the primary stays bound again before it takes its traffic back. */
  givebackHoldMs: number;
};

/** The simulator's credentials for each carrier: system_id = the carrier's name, this password. */
export const SIMULATOR_PASSWORD = "tumira";
export const DEFAULT_TPS = 100;
const DEFAULT_WINDOW = 10;
const SIMULATOR_WINDOW = 50;

// SMPP 3.4 field limits (5.2.1): system_id 16, password 9, system_type 13 octets, NUL included.
const urlParts = z.object({
  systemId: z.string().min(1, "needs a system_id (smpp://system_id:password@host:port)").max(15, "system_id is at most 15 characters"),
  password: z.string().max(8, "password is at most 8 characters"),
  host: z.string().min(1, "needs a host"),
  port: z.coerce.number({ error: "the port must be a number" }).int("the port must be a whole number").min(1).max(65535),
  systemType: z.string().max(12, "system_type is at most 12 characters"),
  tps: z.coerce
    .number({ error: "tps must be a whole number" })
    .int("tps must be a whole number")
    .min(1, "tps must be at least 1")
    .max(10_000, "tps must be at most 10000"),
  window: z.coerce
    .number({ error: "window must be a whole number" })
    .int("window must be a whole number")
    .min(1, "window must be at least 1")
    .max(1000, "window must be at most 1000"),
});

/** Parses one SMPP_<CARRIER> URL; the error names the variable and what is wrong. */
export function parseCarrierUrl(operator: Operator, text: string): CarrierConfig {
  const variable = `SMPP_${operator.toUpperCase()}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${variable}: not a URL (expected smpp://system_id:password@host:port)`);
  }
  if (url.protocol !== "smpp:") throw new Error(`${variable}: the scheme must be smpp://`);
  const parsed = urlParts.safeParse({
    systemId: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port || 2775,
    systemType: url.searchParams.get("system_type") ?? "",
    tps: url.searchParams.get("tps") ?? DEFAULT_TPS,
    window: url.searchParams.get("window") ?? DEFAULT_WINDOW,
  });
  if (!parsed.success) throw new Error(`${variable}: ${parsed.error.issues[0].message}`);
  return { operator, ...parsed.data, simulated: false };
}

export function simulatorCarrierConfig(operator: Operator, port: number, tps: number): CarrierConfig {
  // The simulator answers in microseconds on loopback; a wider window lets it reach its TPS.
  return {
    operator,
    host: "127.0.0.1",
    port,
    systemId: operator,
    password: SIMULATOR_PASSWORD,
    systemType: "",
    tps,
    window: SIMULATOR_WINDOW,
    simulated: true,
  };
}

type CarrierSettings = { url?: string; mode: "shared" | "failover"; failoverAfterSeconds: number; givebackHoldSeconds: number };

const carrierSettingsOf: Record<Operator, (env: Env) => CarrierSettings> = {
  econet: (env) => ({
    url: env.SMPP_ECONET,
    mode: env.SMPP_ECONET_MODE,
    failoverAfterSeconds: env.SMPP_ECONET_FAILOVER_AFTER_SECONDS,
    givebackHoldSeconds: env.SMPP_ECONET_GIVEBACK_HOLD_SECONDS,
  }),
  netone: (env) => ({
    url: env.SMPP_NETONE,
    mode: env.SMPP_NETONE_MODE,
    failoverAfterSeconds: env.SMPP_NETONE_FAILOVER_AFTER_SECONDS,
    givebackHoldSeconds: env.SMPP_NETONE_GIVEBACK_HOLD_SECONDS,
  }),
  telecel: (env) => ({
    url: env.SMPP_TELECEL,
    mode: env.SMPP_TELECEL_MODE,
    failoverAfterSeconds: env.SMPP_TELECEL_FAILOVER_AFTER_SECONDS,
    givebackHoldSeconds: env.SMPP_TELECEL_GIVEBACK_HOLD_SECONDS,
  }),
};

/**
 * One carrier's binds from its SMPP_<CARRIER> value (one URL, or several separated by commas). In
 * shared mode `tps` is the carrier's cap: given on the first URL, the others give the same or none.
 */
function parseCarrierBinds(operator: Operator, settings: CarrierSettings & { url: string }): CarrierBinds {
  const variable = `SMPP_${operator.toUpperCase()}`;
  const texts = settings.url.split(",").map((text) => text.trim());
  if (texts.some((text) => text === "")) throw new Error(`${variable}: an empty URL in the list (URLs are separated by single commas)`);
  const configs = texts.map((text) => parseCarrierUrl(operator, text));
  if (settings.mode === "shared") {
    const givenTps = texts.slice(1).map((text, index) => (new URL(text).searchParams.has("tps") ? configs[index + 1].tps : null));
    if (givenTps.some((tps) => tps !== null && tps !== configs[0].tps))
      throw new Error(`${variable}: tps is the carrier's cap shared by its binds: give it on the first URL (the others the same or none)`);
  }
  const roleOf = (index: number): BindRole =>
    configs.length === 1 || (settings.mode === "failover" && index === 0) ? "primary" : settings.mode === "failover" ? "standby" : "shared";
  return {
    operator,
    mode: configs.length === 1 ? "shared" : settings.mode,
    binds: configs.map((config, index) => ({
      ...config,
      ...(settings.mode === "shared" ? { tps: configs[0].tps } : {}),
      role: roleOf(index),
    })),
    tps: configs[0].tps,
    failoverAfterMs: settings.failoverAfterSeconds * 1000,
    givebackHoldMs: settings.givebackHoldSeconds * 1000,
  };
}

/** Every carrier's binds: from its SMPP_<CARRIER> value, else one bind to the simulator on simulatorPort. */
export function carrierConfigs(env: Env, simulatorPort = env.SMSC_SIMULATOR_PORT): Record<Operator, CarrierBinds> {
  return Object.fromEntries(
    operators.map((operator) => {
      const settings = carrierSettingsOf[operator](env);
      if (settings.url) return [operator, parseCarrierBinds(operator, { ...settings, url: settings.url })];
      const simulated = simulatorCarrierConfig(operator, simulatorPort, env.SMSC_SIMULATOR_TPS);
      const binds: CarrierBinds = {
        operator,
        mode: "shared",
        binds: [{ ...simulated, role: "primary" }],
        tps: simulated.tps,
        failoverAfterMs: settings.failoverAfterSeconds * 1000,
        givebackHoldMs: settings.givebackHoldSeconds * 1000,
      };
      return [operator, binds];
    }),
  ) as Record<Operator, CarrierBinds>;
}

/** For logs: the URL without its password. */
export function describeCarrier(config: CarrierConfig): string {
  return `smpp://${config.systemId}@${config.host}:${config.port}${config.simulated ? " (simulator)" : ""}`;
}
