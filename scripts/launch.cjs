// `node scripts/launch.cjs <server|worker|cli|smsc> [args]`: what npm start, npm run worker, cli and
// smsc run. Builds what is missing or older than the sources (so `npm install && npm start` works on
// a fresh clone), then runs the built entry, dist/<name>.js, in this same process: plain JavaScript,
// no TypeScript loader and no bundler at run time (docs/decisions/0007-server-built-ahead-of-time.md).
// Plain CommonJS, as what it runs: it must work before anything is built.
"use strict";
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const ENTRIES = ["server", "worker", "cli", "smsc"];
const SERVER_SOURCES = ["lib", "scripts", "server.ts", "package.json", "tsconfig.json"];
const DASHBOARD_SOURCES = [
  "app",
  "components",
  "lib",
  "public",
  "types",
  "next.config.js",
  "tailwind.config.ts",
  "postcss.config.mjs",
  "package.json",
  "tsconfig.json",
];

/** The newest modification time under `entry` (0 when it does not exist). */
function newestMtime(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(entry).reduce((newest, name) => Math.max(newest, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

/** Whether `stamp` exists and is newer than every one of `sources`. */
function isFresh(stamp, sources) {
  const builtAt = newestMtime(path.join(ROOT, stamp));
  return builtAt > 0 && sources.every((source) => newestMtime(path.join(ROOT, source)) < builtAt);
}

/** Runs a build step; its output goes to stderr, so that the CLI's stdout stays its JSON alone. */
function build(what, command, args) {
  console.error(what);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: ["ignore", 2, 2], env: process.env });
  if (result.status === 0) return;
  console.error("The build failed; see the output above.");
  process.exit(result.status ?? 1);
}

/**
 * `npm start` and `npm run worker` run production unless NODE_ENV says otherwise (a worker posts the
 * webhooks and serves /metrics, so it must guard them as the server does); a demo only where nobody
 * asked for production, and only the server seeds one.
 */
function setProductionDefaults(name) {
  // Read here, as lib/env.ts would later: NODE_ENV=production in .env is a deployment's too.
  if (process.env.NODE_ENV !== "test" && fs.existsSync(".env")) process.loadEnvFile(".env");
  if (process.env.NODE_ENV) return;
  process.env.NODE_ENV = "production";
  if (name === "server") process.env.SEED_DEMO ??= "true";
}

function main() {
  const [name, ...args] = process.argv.slice(2);
  if (!ENTRIES.includes(name)) {
    console.error(`Usage: node scripts/launch.cjs <${ENTRIES.join("|")}> [args]`);
    process.exit(2);
  }
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
  if (name === "server" || name === "worker") setProductionDefaults(name);
  if (name === "server") {
    // `--api-only` serves no dashboard, and needs none built.
    if (!args.includes("--api-only") && !isFresh(".next/BUILD_ID", DASHBOARD_SOURCES))
      build("Building the dashboard and the server (npm run build)…", "npm", ["run", "build"]);
  }
  if (!isFresh("dist/BUILT", SERVER_SOURCES))
    build("Building the server…", process.execPath, ["--import", "tsx", "scripts/build-server.ts"]);
  const entry = path.join(ROOT, "dist", `${name}.js`);
  // As if node had been started on the built file: it reads its own arguments from argv[2].
  process.argv = [process.argv[0], entry, ...args];
  require(entry);
}

main();
