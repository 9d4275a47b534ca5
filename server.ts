// The server process. `npm start` runs it built (dist/server.js, through scripts/launch.cjs);
// `npm run dev` runs it from the TypeScript sources under tsx with `--dev` (Next's dev server).
// `--api-only` serves only the HTTP API. HTTP_PROCESSES=N > 1 makes this process a cluster primary
// with N HTTP workers (lib/server/start-server.ts).
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { describeFirstLogin, prepareFirstLogin, serverUrl } from "@/lib/server/first-login";
import { startServer, stopOnSignals } from "@/lib/server/start-server";

async function main() {
  const args = new Set(process.argv.slice(2));
  const dashboard = !args.has("--api-only");
  const running = await startServer({ dashboard, dev: args.has("--dev") });
  stopOnSignals(running.stop);
  const firstLogin = await prepareFirstLogin({ seedDemo: getEnv().SEED_DEMO });
  console.log(describeFirstLogin(firstLogin, serverUrl(getEnv().HOST, running.port), { dashboard }));
}

main().catch((error) => {
  logger.fatal({ err: error }, "start failed");
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
