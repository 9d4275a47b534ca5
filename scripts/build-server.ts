// `npm run build`'s server half: compiles the processes' entry points ahead of time into plain
// CommonJS JavaScript in dist/, one file each, run with plain `node` (decision 0007). Packages stay
// external (resolved from node_modules at run time); so do the generated Prisma clients, which load
// files next to themselves. No keepNames: a name-keeping wrapper would run at every closure made.
import fs from "node:fs/promises";
import path from "node:path";
import { build, type Plugin } from "esbuild";

const PROJECT_ROOT = path.resolve(import.meta.dirname, "..");
export const DIST_DIR = path.join(PROJECT_ROOT, "dist");
/** Output name (dist/<name>.js) → source. The cluster primary forks http-worker.js from beside itself. */
export const SERVER_ENTRIES: Record<string, string> = {
  server: "server.ts",
  "http-worker": "lib/server/http-worker.ts",
  worker: "scripts/worker.ts",
  cli: "scripts/cli.ts",
  smsc: "scripts/smsc.ts",
};
/** Written last, with the build's start time: `npm start` compares it with the sources' (scripts/launch.cjs). */
export const BUILD_STAMP = path.join(DIST_DIR, "BUILT");
/** Required from where they are, never compiled in. */
const UNBUNDLED_DIRS = [path.join(PROJECT_ROOT, "lib/db/generated")];
/** Marks keepUnbundled's own resolve calls, which it must not intercept again. */
const OWN_RESOLVE = Symbol("keep-unbundled");

/**
 * Compiles each entry (name → source, relative to the project) with its project imports into
 * `outdir`/<name>.js. Throws if esbuild warns: a warned construct (import.meta in CommonJS, say)
 * would misbehave only at run time. Files are written aside and renamed, so a process starting
 * during a build never runs half a file.
 */
export async function compileEntries(entries: Record<string, string>, outdir: string = DIST_DIR): Promise<string[]> {
  const result = await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: Object.entries(entries).map(([name, source]) => ({ in: path.join(PROJECT_ROOT, source), out: name })),
    // "@/…" resolves through tsconfig's paths.
    tsconfig: path.join(PROJECT_ROOT, "tsconfig.json"),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    packages: "external",
    plugins: [keepUnbundled(UNBUNDLED_DIRS, outdir)],
    outdir,
    write: false,
    logLevel: "silent",
  });
  if (result.warnings.length > 0) throw new Error(`esbuild warned: ${result.warnings.map((warning) => warning.text).join("; ")}`);
  await fs.mkdir(outdir, { recursive: true });
  await Promise.all(
    result.outputFiles.map(async (file) => {
      const partial = `${file.path}.${process.pid}.tmp`;
      await fs.writeFile(partial, file.contents);
      await fs.rename(partial, file.path);
    }),
  );
  return result.outputFiles.map((file) => file.path);
}

/** Leaves every import that resolves into one of `dirs` external, by its path relative to `outdir`. */
function keepUnbundled(dirs: string[], outdir: string): Plugin {
  return {
    name: "keep-unbundled",
    setup(esbuild) {
      // Relative, absolute and "@/…" imports: packages are external anyway.
      esbuild.onResolve({ filter: /^(\.|\/|@\/)/ }, async (args) => {
        if (args.pluginData === OWN_RESOLVE) return undefined;
        const resolved = await esbuild.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: OWN_RESOLVE,
        });
        if (resolved.errors.length > 0 || resolved.external) return undefined;
        if (!dirs.some((dir) => resolved.path.startsWith(dir + path.sep))) return undefined;
        // Relative to the output: the checkout can move without a rebuild.
        const relative = path.relative(outdir, resolved.path).split(path.sep).join("/");
        return { path: relative.startsWith(".") ? relative : `./${relative}`, external: true };
      });
    },
  };
}

/** Compiles SERVER_ENTRIES into dist/ and stamps the build. */
export async function buildServer(): Promise<string[]> {
  const startedAt = new Date();
  const files = await compileEntries(SERVER_ENTRIES);
  // The start time: a source saved during the build is newer than the build.
  await fs.writeFile(BUILD_STAMP, "");
  await fs.utimes(BUILD_STAMP, startedAt, startedAt);
  return files;
}

if (process.argv[1] === import.meta.filename) {
  buildServer().then(
    (files) => console.log(`Server compiled: ${files.map((file) => path.relative(PROJECT_ROOT, file)).join(", ")}`),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
