// Production server entry: `tsx server.ts` (npm start runs it after build, migrate and seed).
// `--dev` serves the dashboard with Next's dev server; `--api-only` serves only the HTTP API.
// HTTP_PROCESSES=N > 1 makes this process a cluster primary with N HTTP workers (lib/server/start-server.ts).
// Outside --dev the server's code runs from its plain-JavaScript bundle (lib/server/bundle.ts).
import { importServerEntry } from "@/lib/server/bundle";
import { logger } from "@/lib/log";

async function main() {
  const args = new Set(process.argv.slice(2));
  const dev = args.has("--dev");
  const { startServer, stopOnSignals } = dev ? await import("@/lib/server/server-entry") : await importServerEntry();
  const running = await startServer({ dashboard: !args.has("--api-only"), dev });
  stopOnSignals(running.stop);
}

main().catch((error) => {
  logger.fatal({ err: error }, "start failed");
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
