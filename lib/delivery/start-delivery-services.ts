import type { BackgroundOptions, BackgroundService } from "@/lib/server/background";

/** Starts the delivery side of a process (issue 4 fills this in: simulator, dispatcher, webhooks). */
export async function startDeliveryServices(_options: BackgroundOptions): Promise<BackgroundService[]> {
  return [];
}
