// What an operator must not miss, shown as banners on every dashboard page of the platform staff:
// a carrier with no bind up or no dispatcher reporting one, a paused carrier, a queue whose first
// message in line waits too long.
import { readCarrierOverview, type CarrierOverview } from "@/lib/delivery/carrier-links";
import { carrierName } from "@/lib/messages/vocabulary";

/** A carrier whose binds have all been down this long gets a banner (short reconnects do not). */
export const BIND_DOWN_ALERT_MS = 2 * 60_000;
/** A queue whose first message has waited this long gets a banner. */
export const QUEUE_AGE_ALERT_MS = 5 * 60_000;

export type CarrierAlert = { id: string; tone: "red" | "amber"; text: string };

function minutes(ms: number): string {
  const whole = Math.max(1, Math.round(ms / 60_000));
  return `${whole} min`;
}

export function carrierAlertsOf(carriers: CarrierOverview[], now: Date): CarrierAlert[] {
  const alerts: CarrierAlert[] = [];
  for (const carrier of carriers) {
    const name = carrierName(carrier.operator);
    if (carrier.paused) {
      alerts.push({ id: `${carrier.operator}-paused`, tone: "amber", text: `${name} is paused: ${carrier.paused.reason}` });
    } else if (carrier.binds.length === 0) {
      // Every dispatcher stopped (or none was started): nothing reports a bind that could be down.
      alerts.push({ id: `${carrier.operator}-unreported`, tone: "red", text: `${name}: no dispatcher is reporting a bind` });
    } else if (carrier.binds.every((bind) => bind.state !== "bound")) {
      const downSince = Math.max(...carrier.binds.map((bind) => bind.since.getTime()));
      if (now.getTime() - downSince >= BIND_DOWN_ALERT_MS) {
        alerts.push({ id: `${carrier.operator}-down`, tone: "red", text: `${name}: no bind up for ${minutes(now.getTime() - downSince)}` });
      }
    }
    const oldest = carrier.queue.oldestReceivedAt;
    if (oldest && now.getTime() - oldest.getTime() >= QUEUE_AGE_ALERT_MS) {
      const age = minutes(now.getTime() - oldest.getTime());
      alerts.push({ id: `${carrier.operator}-queue`, tone: "amber", text: `${name}: the message first in line has waited ${age}` });
    }
  }
  return alerts;
}

export async function listCarrierAlerts(now = new Date()): Promise<CarrierAlert[]> {
  return carrierAlertsOf(await readCarrierOverview(now), now);
}
