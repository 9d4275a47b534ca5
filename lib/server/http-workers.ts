// The primary's side of HTTP_PROCESSES > 1: forks the HTTP workers (lib/server/http-worker.ts) on the
// shared port (node:cluster; the primary accepts connections and hands them out round-robin),
// replaces a worker that dies, stops them gracefully, and gives up when none of them can start.
import cluster, { type Worker } from "node:cluster";
import path from "node:path";
import { logger } from "@/lib/log";
import { serveClusterMetrics } from "@/lib/metrics-cluster";
import type { HttpServing, ServeOptions } from "./http-server";

/** The environment variable that hands the serve options to a worker. */
export const WORKER_OPTIONS_VARIABLE = "TUMIRA_HTTP_WORKER_OPTIONS";

/** A worker that lived this long before dying is restarted at once; quicker deaths back off. */
const STABLE_AFTER_MS = 10_000;
const FIRST_RESTART_DELAY_MS = 100;
const MAX_RESTART_DELAY_MS = 5_000;
/** Workers dying before they listen, in a row, with none listening: the primary gives up. */
const MAX_START_FAILURES = 5;
/** Workers finish in-flight requests within their 15 s grace; past this they are killed. */
const STOP_DEADLINE_MS = 20_000;

export type WorkerEntry = { exec: string; execArgv: string[] };

/**
 * The worker's entry beside the running code, in the same form: dist/http-worker.js beside the built
 * server (dist/server.js), lib/server/http-worker.ts beside this source under tsx, whose loader flag
 * the workers then inherit with the primary's other flags.
 */
export function chooseWorkerEntry(moduleFile: string = __filename, execArgv: string[] = process.execArgv): WorkerEntry {
  return {
    exec: path.join(path.dirname(moduleFile), `http-worker${path.extname(moduleFile)}`),
    execArgv: withSmallYoungGeneration(execArgv),
  };
}

/**
 * Small V8 semi-spaces: a busy worker's young generation would grow to several times what a
 * request's short-lived garbage needs (decision 0007). A size given explicitly wins.
 */
export function withSmallYoungGeneration(execArgv: string[]): string[] {
  if (execArgv.some((arg) => arg.startsWith("--max-semi-space-size"))) return execArgv;
  return [...execArgv, "--max-semi-space-size=4"];
}

type Slot = { worker: Worker; startedAt: number; listening: boolean; quickDeaths: number; exited: Promise<void>; restart?: NodeJS.Timeout };

/**
 * Forks `processes` workers; resolves once each has listened, with the shared port. If none can
 * start (MAX_START_FAILURES deaths before listening in a row), stops the rest and calls onGiveUp.
 */
export async function startHttpWorkers(options: ServeOptions, processes: number, onGiveUp: (error: Error) => void): Promise<HttpServing> {
  cluster.setupPrimary(chooseWorkerEntry());
  const workerEnv = { [WORKER_OPTIONS_VARIABLE]: JSON.stringify(options) };
  const slots: Slot[] = [];
  let stopping = false;
  let startFailuresInARow = 0;
  let port: number | undefined;
  let ready: (serving: HttpServing) => void;
  const started = new Promise<HttpServing>((resolve) => (ready = resolve));

  serveClusterMetrics(() => slots.filter((slot) => slot.listening).map((slot) => slot.worker));

  const fork = (slot: Slot) => {
    const worker = cluster.fork(workerEnv);
    const pid = worker.process.pid;
    Object.assign(slot, { worker, startedAt: Date.now(), listening: false, restart: undefined });
    slot.exited = new Promise((resolve) => worker.once("exit", () => resolve()));
    worker.once("listening", (address) => {
      slot.listening = true;
      startFailuresInARow = 0;
      port ??= address.port;
      logger.info({ worker: worker.id, pid, port: address.port }, "http worker listening");
      if (slots.every((each) => each.listening)) ready({ port, close: stop });
    });
    worker.once("exit", (code, signal) => {
      if (stopping) return;
      const diedAtStart = !slot.listening;
      slot.listening = false;
      slot.quickDeaths = Date.now() - slot.startedAt >= STABLE_AFTER_MS ? 0 : slot.quickDeaths + 1;
      if (diedAtStart) startFailuresInARow++;
      if (startFailuresInARow >= MAX_START_FAILURES && !slots.some((each) => each.listening)) {
        giveUp(new Error(`${startFailuresInARow} HTTP workers in a row exited before listening (last: code ${code}, signal ${signal})`));
        return;
      }
      const delay = slot.quickDeaths === 0 ? 0 : Math.min(FIRST_RESTART_DELAY_MS * 2 ** (slot.quickDeaths - 1), MAX_RESTART_DELAY_MS);
      logger.error(
        { worker: worker.id, pid, code, signal, restartInMs: delay },
        diedAtStart ? "http worker exited before listening; restarting it" : "http worker died; replacing it",
      );
      slot.restart = setTimeout(() => fork(slot), delay);
    });
  };

  /** SIGTERM to every worker (each finishes its in-flight requests), then waits for all to exit. */
  const stopWorkers = async () => {
    stopping = true;
    for (const slot of slots) clearTimeout(slot.restart);
    const running = slots.filter((slot) => !slot.worker.isDead());
    for (const slot of running) slot.worker.process.kill("SIGTERM");
    const deadline = setTimeout(() => running.forEach((slot) => slot.worker.process.kill("SIGKILL")), STOP_DEADLINE_MS);
    await Promise.all(running.map((slot) => slot.exited));
    clearTimeout(deadline);
  };

  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= stopWorkers());

  const giveUp = (error: Error) => {
    void stop().then(() => onGiveUp(error));
  };

  for (let i = 0; i < processes; i++) {
    const slot = { quickDeaths: 0 } as Slot; // fork() fills in the rest
    slots.push(slot);
    fork(slot);
  }
  return started;
}
