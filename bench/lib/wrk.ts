// HTTP load with wrk (Debian's wrk 4.1, C, one event loop per thread) and bench/lua/load.lua, which
// draws a fresh recipient or message id per request and prints a JSON summary line at the end.
import { spawn } from "node:child_process";
import path from "node:path";
import { whileRunning } from "./cleanup";
import { ensureDebianPackages } from "./debian-packages";
import { startProgress } from "./report";
import type { BenchSettings } from "./settings";

export type LoadOptions = {
  label: string;
  baseUrl: string;
  method?: "GET" | "POST";
  /** Path with optional {msisdn} / {id} placeholders. */
  path: string;
  body?: string;
  token?: string;
  idsFile?: string;
  connections: number;
  threads: number;
  durationSeconds: number;
};

export type LoadResult = {
  label: string;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Responses with status >= 400 (wrk's "status" errors). */
  errorResponses: number;
  /** Connect, read, write errors and timeouts. */
  socketErrors: number;
};

const LUA_SCRIPT = path.join(import.meta.dirname, "..", "lua", "load.lua");

type WrkSummary = {
  requests: number;
  duration_us: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latency_us: { p50: number; p90: number; p99: number; max: number };
};

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_METHOD: options.method ?? "GET", BENCH_PATH: options.path };
  if (options.body) env.BENCH_BODY = options.body;
  if (options.token) env.BENCH_TOKEN = options.token;
  if (options.idsFile) env.BENCH_IDS_FILE = options.idsFile;
  const args = [
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${options.durationSeconds}s`,
    "--timeout",
    "10s",
    "-s",
    LUA_SCRIPT,
    options.baseUrl,
  ];
  await ensureDebianPackages(["/usr/bin/wrk"], ["wrk"]);
  const progress = startProgress(options.label, options.durationSeconds);
  const child = spawn("wrk", args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const stopWrk = whileRunning(async () => void child.kill());
  const output = await new Promise<string>((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk) => (text += chunk));
    child.stderr.on("data", (chunk) => (text += chunk));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}:\n${text}`))));
  }).finally(() => {
    progress.stop();
    void stopWrk();
  });
  const line = output.split("\n").find((text) => text.startsWith("BENCH_RESULT "));
  if (!line) throw new Error(`wrk printed no summary:\n${output}`);
  const summary = JSON.parse(line.slice("BENCH_RESULT ".length)) as WrkSummary;
  const { errors, latency_us: latency } = summary;
  return {
    label: options.label,
    requests: summary.requests,
    requestsPerSecond: summary.requests / (summary.duration_us / 1e6),
    p50Ms: latency.p50 / 1000,
    p90Ms: latency.p90 / 1000,
    p99Ms: latency.p99 / 1000,
    maxMs: latency.max / 1000,
    errorResponses: errors.status,
    socketErrors: errors.connect + errors.read + errors.write + errors.timeout,
  };
}

export type LoadTarget = Omit<LoadOptions, "connections" | "threads" | "durationSeconds">;

/** Unreported load at the benchmark's concurrency: JIT, caches and pools settle before measuring. */
export async function warmUp(settings: BenchSettings, target: LoadTarget): Promise<void> {
  if (settings.warmupSeconds <= 0) return;
  await runLoad({
    ...target,
    label: `${target.label} (warm-up)`,
    connections: settings.connections,
    threads: settings.threads,
    durationSeconds: settings.warmupSeconds,
  });
}

export async function measure(settings: BenchSettings, target: LoadTarget): Promise<LoadResult> {
  return runLoad({ ...target, connections: settings.connections, threads: settings.threads, durationSeconds: settings.durationSeconds });
}
