// What the entry scripts (server.ts, scripts/start.ts, scripts/worker.ts) run, in one module so that
// lib/server/bundle.ts can hand it to them as one plain-JavaScript bundle. An entry script imports
// nothing else of lib/ but bundle.ts and the logger (for a failed start): a module it imported itself
// would be a second instance, with a database connection of its own.
export { startServer, stopOnSignals } from "./start-server";
export { stopBackgroundServices } from "@/lib/delivery/background-services";
export { prepareDatabase } from "@/lib/setup/prepare-database";
export { closeDatabase } from "@/lib/db/client";
export { seedDemo } from "@/lib/accounts/seed-demo";
export { startDeliveryServices } from "@/lib/delivery/start-delivery-services";
export { getEnv } from "@/lib/env";
export { logger } from "@/lib/log";
