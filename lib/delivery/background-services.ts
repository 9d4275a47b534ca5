// Long-running work a process hosts besides HTTP (the dispatcher, the SMSC simulator, webhook
// delivery). Each service starts itself and returns how to stop it; stops run in reverse order.
export type BackgroundService = { name: string; stop: () => Promise<void> };

export type BackgroundOptions = {
  /** Run the dispatcher and webhook sender in this process (false when `npm run worker` does it). */
  dispatcher: boolean;
  /** Start the in-process SMSC simulator for carriers without an SMPP_<CARRIER> URL. */
  simulator: boolean;
};

export async function stopBackgroundServices(services: BackgroundService[]): Promise<void> {
  for (const service of [...services].reverse()) await service.stop();
}
