// The webhook sender loop: claims due deliveries (rows, so they survive restarts and several
// workers share them) and attempts them a few at a time. stop(): no new claims, in-flight attempts
// finish (each is bounded by the 5 s timeout).
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@/lib/log";
import { claimWebhookDeliveries } from "./claim-webhook-deliveries";
import { deliverWebhook, WEBHOOK_RETRY_SCHEDULE_MS, WEBHOOK_TIMEOUT_MS, type WebhookAttemptOptions } from "./deliver-webhook";

export type WebhookSenderOptions = Partial<WebhookAttemptOptions> & { logger: Logger; pollMs?: number; concurrency?: number };

/** Longer than an attempt can take, so a live sender never loses its claim. */
const LEASE_MS = 30_000;

export class WebhookSender {
  private stopping = false;
  private loop: Promise<void> = Promise.resolve();
  private wake = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly attemptOptions: WebhookAttemptOptions;
  private readonly log: Logger;

  constructor(private readonly options: WebhookSenderOptions) {
    this.attemptOptions = {
      retryScheduleMs: options.retryScheduleMs ?? WEBHOOK_RETRY_SCHEDULE_MS,
      timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
    };
    this.log = options.logger.child({ component: "webhooks" });
  }

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake.abort();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(): Promise<void> {
    const concurrency = this.options.concurrency ?? 16;
    while (!this.stopping) {
      const free = concurrency - this.inFlight.size;
      const claimed =
        free > 0
          ? await claimWebhookDeliveries(free, LEASE_MS).catch((error) => {
              this.log.error({ err: error }, "webhook claim failed");
              return [];
            })
          : [];
      for (const delivery of claimed) {
        const work = deliverWebhook(delivery, this.attemptOptions)
          .catch((error) =>
            this.log.error({ err: error, deliveryId: delivery.id }, "webhook attempt not recorded; retried when its lease expires"),
          )
          .finally(() => {
            this.inFlight.delete(work);
            this.wake.abort(); // a slot is free: claim again without waiting for the poll
          });
        this.inFlight.add(work);
      }
      if (claimed.length === 0 || this.inFlight.size >= concurrency) await this.pause();
    }
  }

  private async pause(): Promise<void> {
    if (this.wake.signal.aborted) {
      this.wake = new AbortController(); // woken while claiming: claim again at once
      return;
    }
    await sleep(this.options.pollMs ?? 500, undefined, { signal: this.wake.signal }).catch(() => undefined);
  }
}
