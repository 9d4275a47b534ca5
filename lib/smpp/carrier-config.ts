// Where each carrier's SMSC is and how to talk to it, from SMPP_ECONET / SMPP_NETONE / SMPP_TELECEL:
//   smpp://system_id:password@host:port?system_type=&tps=100&window=10
// A carrier without a URL goes to the SMSC simulator (in-process, or `npm run smsc`) on
// 127.0.0.1:SMSC_SIMULATOR_PORT, paced at SMSC_SIMULATOR_TPS.
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

/** The simulator's credentials for each carrier: system_id = the carrier's name, this password. */
export const SIMULATOR_PASSWORD = "tumira";
const DEFAULT_TPS = 100;
const DEFAULT_WINDOW = 10;
const SIMULATOR_WINDOW = 50;

// SMPP 3.4 field limits (5.2.1): system_id 16, password 9, system_type 13 octets, NUL included.
const urlParts = z.object({
  systemId: z.string().min(1, "needs a system_id (smpp://system_id:password@host:port)").max(15, "system_id is at most 15 characters"),
  password: z.string().max(8, "password is at most 8 characters"),
  host: z.string().min(1, "needs a host"),
  port: z.coerce.number().int().min(1).max(65535),
  systemType: z.string().max(12, "system_type is at most 12 characters"),
  tps: z.coerce.number().int("tps must be a whole number").min(1, "tps must be at least 1").max(10_000, "tps must be at most 10000"),
  window: z.coerce
    .number()
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

const carrierUrlOf: Record<Operator, (env: Env) => string | undefined> = {
  econet: (env) => env.SMPP_ECONET,
  netone: (env) => env.SMPP_NETONE,
  telecel: (env) => env.SMPP_TELECEL,
};

/** Every carrier's connection settings: its SMPP_<CARRIER> URL, else the simulator on simulatorPort. */
export function carrierConfigs(env: Env, simulatorPort = env.SMSC_SIMULATOR_PORT): Record<Operator, CarrierConfig> {
  return Object.fromEntries(
    operators.map((operator) => {
      const url = carrierUrlOf[operator](env);
      return [operator, url ? parseCarrierUrl(operator, url) : simulatorCarrierConfig(operator, simulatorPort, env.SMSC_SIMULATOR_TPS)];
    }),
  ) as Record<Operator, CarrierConfig>;
}

/** For logs: the URL without its password. */
export function describeCarrier(config: CarrierConfig): string {
  return `smpp://${config.systemId}@${config.host}:${config.port}${config.simulated ? " (simulator)" : ""}`;
}
