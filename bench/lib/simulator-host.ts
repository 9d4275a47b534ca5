// The SMSC simulator alone in a process, for a peer gateway to bind to: an API-only Tumira server
// with the simulator on and no dispatcher, on a database of its own.
import { createBenchDatabase } from "./database";
import type { BenchSettings } from "./settings";
import { startTumira } from "./tumira";

/** The simulator's credentials for the Econet bind (lib/smpp/carrier-config.ts) and our dispatcher's window. */
export const SIMULATOR_BIND = { systemId: "econet", password: "tumira", window: 50 };

export async function startSimulatorHost(settings: BenchSettings, port: number, tps: string): Promise<{ stop: () => Promise<void> }> {
  const database = await createBenchDatabase("sqlite", settings.postgresAdminUrl);
  const host = await startTumira(database, {
    processes: 1,
    env: { SMSC_SIMULATOR: "on", SMSC_SIMULATOR_PORT: String(port), SMSC_SIMULATOR_TPS: tps },
  }).catch(async (error) => {
    await database.drop();
    throw error;
  });
  return {
    stop: async () => {
      await host.stop();
      await database.drop();
    },
  };
}
