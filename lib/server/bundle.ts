// Production code runs as plain JavaScript bundled by esbuild, not TypeScript under tsx:
// - the HTTP workers (HTTP_PROCESSES > 1) are forked on lib/server/http-worker.ts bundled, without
//   tsx's flags: tsx's ESM loader hooks run on a loader thread of their own on Node 20, about 35 MB
//   of RSS in every worker;
// - the entry scripts (server.ts, scripts/start.ts, scripts/worker.ts) start under tsx but require what
//   they run from lib/server/server-entry.ts bundled: tsx compiles with esbuild's keepNames, which
//   wraps every named closure in a call that redefines the function's name, each time the closure is
//   made. On the request path that cost a one-process server about 15 % of its CPU per send. This
//   bundle is CommonJS, as tsx compiles the sources: imported as ESM it went through tsx's loader
//   thread, and the process took 20 MB more.
// Bundles are rebuilt at every start (well under a second), so they never run stale code; if
// bundling fails for any reason (a read-only install, say), the TypeScript source runs under tsx.
import fs from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";
import type { Plugin } from "esbuild";
import { logger } from "@/lib/log";

/**
 * The working directory npm runs scripts in, as for migrations and Next. Not import.meta.dirname:
 * inside a bundle that is the bundle's folder.
 */
const PROJECT_ROOT = process.cwd();
const WORKER_SOURCE = path.join(PROJECT_ROOT, "lib/server/http-worker.ts");
const SERVER_ENTRY_SOURCE = path.join(PROJECT_ROOT, "lib/server/server-entry.ts");
/** Under the project, so the bundles' bare imports (next, pino, @prisma/…) resolve from its node_modules. */
export const BUNDLE_DIR = path.join(PROJECT_ROOT, "node_modules/.cache/tumira");
export const WORKER_BUNDLE = path.join(BUNDLE_DIR, "http-worker.mjs");
export const SERVER_ENTRY_BUNDLE = path.join(BUNDLE_DIR, "server-entry.cjs");
/** Imported from where they are, never bundled: the generated Prisma clients load files next to themselves. */
const UNBUNDLED_DIRS = [path.join(PROJECT_ROOT, "lib/db/generated")];
/** Node's flags that load a module before the entry: how tsx comes in. */
const LOADER_FLAGS = new Set(["--import", "--require", "-r", "--loader", "--experimental-loader"]);
/** Marks keepUnbundled's own resolve calls, which it must not intercept again. */
const OWN_RESOLVE = Symbol("keep-unbundled");

export type ServerEntry = typeof import("./server-entry");
export type WorkerEntry = { exec: string; execArgv: string[] };

/** lib/server/server-entry.ts from its bundle, or from the TypeScript source if bundling fails. */
export async function importServerEntry(bundle: () => Promise<string> = () => bundleModule(SERVER_ENTRY_SOURCE, SERVER_ENTRY_BUNDLE, "cjs")): Promise<ServerEntry> {
  try {
    return createRequire(path.join(PROJECT_ROOT, "package.json"))(await bundleLogged("server", bundle)) as ServerEntry;
  } catch (error) {
    logger.warn({ err: error }, "could not bundle the server; it runs the TypeScript under tsx");
    return import("./server-entry");
  }
}

/** The bundled worker with tsx's flags dropped, or the TypeScript source under tsx if bundling fails. */
export async function chooseWorkerEntry(bundle: () => Promise<string> = bundleHttpWorker): Promise<WorkerEntry> {
  try {
    const exec = await bundleLogged("http worker", bundle);
    return { exec, execArgv: withSmallYoungGeneration(withoutTsx(process.execArgv)) };
  } catch (error) {
    logger.warn({ err: error }, "could not bundle the http worker; its processes run it under tsx");
    return { exec: WORKER_SOURCE, execArgv: withSmallYoungGeneration(process.execArgv) };
  }
}

/** Runs `bundle` and logs the file it wrote and how long that took. */
async function bundleLogged(what: string, bundle: () => Promise<string>): Promise<string> {
  const started = performance.now();
  const file = await bundle();
  logger.info({ file, ms: Math.round(performance.now() - started) }, `${what} bundled`);
  return file;
}

/** Writes WORKER_BUNDLE and returns its path. */
export function bundleHttpWorker(): Promise<string> {
  return bundleModule(WORKER_SOURCE, WORKER_BUNDLE, "esm");
}

/**
 * Bundles `source` and its project imports (packages stay external) into `outfile`. Throws if esbuild
 * warns: a warned construct (import.meta in CommonJS, say) would misbehave only at run time.
 */
export async function bundleModule(source: string, outfile: string, format: "esm" | "cjs"): Promise<string> {
  // Loaded here only: nothing else needs esbuild at run time.
  const { build, stop } = await import("esbuild");
  const result = await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: [source],
    // "@/…" resolves through tsconfig's paths.
    tsconfig: path.join(PROJECT_ROOT, "tsconfig.json"),
    bundle: true,
    platform: "node",
    format,
    target: "node20",
    packages: "external",
    plugins: [keepUnbundled(UNBUNDLED_DIRS)],
    outfile,
    write: false,
    logLevel: "silent",
  }).finally(stop);
  if (result.warnings.length > 0) throw new Error(`esbuild warned: ${result.warnings.map((warning) => warning.text).join("; ")}`);
  // Written aside and renamed: another process starting at the same time never runs half a file.
  const partial = `${outfile}.${process.pid}.tmp`;
  await fs.mkdir(path.dirname(outfile), { recursive: true });
  await fs.writeFile(partial, result.outputFiles[0].contents);
  await fs.rename(partial, outfile);
  return outfile;
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
