// What the cluster primary forks its HTTP workers on: lib/server/http-worker.ts bundled by esbuild
// into one plain-JavaScript file, run by node without tsx. tsx's ESM loader hooks run on a loader
// thread of their own on Node 20, about 35 MB of RSS in every worker. The bundle is rebuilt at every
// primary start (well under a second), so it never runs stale code; if bundling fails for any reason,
// the workers run the TypeScript source under tsx as before.
import fs from "node:fs/promises";
import path from "node:path";
import type { Plugin } from "esbuild";
import { logger } from "@/lib/log";

const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");
const WORKER_SOURCE = path.join(import.meta.dirname, "http-worker.ts");
/** Under the project, so the bundle's bare imports (next, pino, @prisma/…) resolve from its node_modules. */
export const WORKER_BUNDLE = path.join(PROJECT_ROOT, "node_modules/.cache/tumira/http-worker.mjs");
/** Imported from where they are, never bundled: the generated Prisma clients load files next to themselves. */
const UNBUNDLED_DIRS = [path.join(PROJECT_ROOT, "lib/db/generated")];
/** Node's flags that load a module before the entry: how tsx comes in. */
const LOADER_FLAGS = new Set(["--import", "--require", "-r", "--loader", "--experimental-loader"]);
/** Marks keepUnbundled's own resolve calls, which it must not intercept again. */
const OWN_RESOLVE = Symbol("keep-unbundled");

export type WorkerEntry = { exec: string; execArgv: string[] };

/** The bundled worker with tsx's flags dropped, or the TypeScript source under tsx if bundling fails. */
export async function chooseWorkerEntry(bundle: () => Promise<string> = bundleHttpWorker): Promise<WorkerEntry> {
  const started = performance.now();
  try {
    const exec = await bundle();
    logger.info({ file: exec, ms: Math.round(performance.now() - started) }, "http worker bundled");
    return { exec, execArgv: withSmallYoungGeneration(withoutTsx(process.execArgv)) };
  } catch (error) {
    logger.warn({ err: error }, "could not bundle the http worker; its processes run it under tsx");
    return { exec: WORKER_SOURCE, execArgv: withSmallYoungGeneration(process.execArgv) };
  }
}

/** Writes WORKER_BUNDLE and returns its path. */
export async function bundleHttpWorker(): Promise<string> {
  // Loaded here only: a single-process server never needs esbuild.
  const { build, stop } = await import("esbuild");
  const result = await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: [WORKER_SOURCE],
    // "@/…" resolves through tsconfig's paths.
    tsconfig: path.join(PROJECT_ROOT, "tsconfig.json"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    plugins: [keepUnbundled(UNBUNDLED_DIRS)],
    outfile: WORKER_BUNDLE,
    write: false,
    logLevel: "silent",
  }).finally(stop);
  // Written aside and renamed: another primary starting at the same time never forks on half a file.
  const partial = `${WORKER_BUNDLE}.${process.pid}.tmp`;
  await fs.mkdir(path.dirname(WORKER_BUNDLE), { recursive: true });
  await fs.writeFile(partial, result.outputFiles[0].contents);
  await fs.rename(partial, WORKER_BUNDLE);
  return WORKER_BUNDLE;
}

/** Leaves every import that resolves into one of `dirs` external, by its absolute file path. */
function keepUnbundled(dirs: string[]): Plugin {
  return {
    name: "keep-unbundled",
    setup(build) {
      // Relative, absolute and "@/…" imports: packages are external anyway.
      build.onResolve({ filter: /^(\.|\/|@\/)/ }, async (args) => {
        if (args.pluginData === OWN_RESOLVE) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: OWN_RESOLVE });
        if (resolved.errors.length > 0 || resolved.external) return undefined;
        if (!dirs.some((dir) => resolved.path.startsWith(dir + path.sep))) return undefined;
        return { path: resolved.path, external: true };
      });
    },
  };
}

/**
 * V8's young generation grows to about 3 × 16 MB in a busy worker, 60 MB of RSS per worker under load
 * that a request's short-lived garbage does not need. 8 MB semi-spaces kept a two-worker tree about
 * 40 MB lower in single-send load at the same rate (within the noise); 4 MB about 6 MB lower again
 * per worker (two pairs of runs), with the same CPU per send. A flag given explicitly wins.
 */
export function withSmallYoungGeneration(execArgv: string[]): string[] {
  if (execArgv.some((arg) => arg.startsWith("--max-semi-space-size"))) return execArgv;
  return [...execArgv, "--max-semi-space-size=4"];
}

/** execArgv without tsx's loader flags (`--import tsx` from npm scripts, the tsx CLI's --require and --import). */
export function withoutTsx(execArgv: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i];
    if (LOADER_FLAGS.has(arg)) {
      // The flag's value is the next argument: both go or both stay.
      const value = execArgv[++i];
      if (!isTsx(value)) kept.push(arg, value);
      continue;
    }
    const equals = arg.indexOf("=");
    if (equals > 0 && LOADER_FLAGS.has(arg.slice(0, equals)) && isTsx(arg.slice(equals + 1))) continue;
    kept.push(arg);
  }
  return kept;
}

/** "tsx", "tsx/esm", or a path or file URL into tsx's package. */
function isTsx(specifier: string): boolean {
  return /(^|[\\/])tsx([\\/]|$)/.test(specifier);
}
