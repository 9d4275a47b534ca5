// `npm start`: build the dashboard if the build is missing or older than the sources, bring the
// database to the current schema, seed a demo on an empty database, and serve.
(process.env as Record<string, string>).NODE_ENV ??= "production";
process.env.NEXT_TELEMETRY_DISABLED = "1";

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { importServerEntry } from "@/lib/server/bundle";

const SOURCE_DIRS = ["app", "components", "lib", "public", "types"];
const SOURCE_FILES = ["next.config.js", "tailwind.config.ts", "postcss.config.mjs", "package.json", "tsconfig.json"];

function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(entry).reduce((newest, name) => Math.max(newest, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

function buildIfNeeded(): void {
  const buildId = path.join(".next", "BUILD_ID");
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  const sourcesAt = Math.max(...[...SOURCE_DIRS, ...SOURCE_FILES].map(newestMtime));
  if (builtAt > sourcesAt) return;
  console.log(builtAt ? "Sources changed since the last build; rebuilding the dashboard…" : "Building the dashboard (first start, about a minute)…");
  const result = spawnSync("npx", ["next", "build"], { stdio: "inherit", env: process.env });
  if (result.status !== 0) {
    console.error("The dashboard build failed; see the output above.");
    process.exit(result.status ?? 1);
  }
}

async function main() {
  buildIfNeeded();
  // The server's code from its plain-JavaScript bundle (lib/server/bundle.ts).
  const { prepareDatabase, seedDemo, startServer, stopOnSignals } = await importServerEntry();
  await prepareDatabase();
  const demo = await seedDemo();
  const running = await startServer({ dashboard: true });
  stopOnSignals(running.stop);
  const url = `http://localhost:${running.port}`;
  const lines = [`Tumira is running at ${url}`];
  if (demo) {
    lines.push(
      "",
      "A demo account was created (shown once, note it down):",
      `  account   Demo (${demo.accountId}), USD 100.00, sender id DEMO`,
      `  sign in   ${demo.email}`,
      `  password  ${demo.password}`,
      "",
      `Create your first API key at ${url}/dashboard/keys, or: npm run cli -- keys:create --account ${demo.accountId} --name first`,
    );
  }
  console.log(`\n${lines.map((line) => `  ${line}`).join("\n")}\n`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
